import { getMetadataStorage } from 'class-validator';

/**
 * The longest string a DTO property accepts (its `@MaxLength` or `@Length`), for code that checks
 * the same values outside a request body (a file's cells) and must hold to the same limits.
 */
export function maxLengthOf(target: abstract new () => object, property: string): number {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  for (const rule of metadata) {
    if (rule.propertyName !== property) continue;
    const constraints = rule.constraints as number[];
    if (rule.name === 'maxLength') return constraints[0];
    if (rule.name === 'isLength') return constraints[1];
  }
  throw new Error(`${target.name}.${property} declares no length limit`);
}
