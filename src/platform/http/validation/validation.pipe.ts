import {
  BadRequestException,
  ValidationPipe,
  type ArgumentMetadata,
  type Paramtype,
} from '@nestjs/common';
import { ValidationFailedException } from '../../errors/validation-failed.exception.js';

/** What the pipe refuses in every text it is given: text PostgreSQL cannot store, or not Unicode. */
const NUL = '\u0000';
const NUL_PROBLEM = 'must not contain NUL characters';
/** With the `u` flag a surrogate pair is one code point, so only unpaired halves match. */
const UNPAIRED_SURROGATE = /[\uD800-\uDFFF]/u;
const UNPAIRED_SURROGATES = /[\uD800-\uDFFF]/gu;
const SURROGATE_PROBLEM = 'must be valid Unicode text (it has an unpaired surrogate)';

const PARAMETER_KINDS: Partial<Record<Paramtype, string>> = {
  query: 'query parameter',
  param: 'path parameter',
};

/**
 * The global pipe: refuses NUL characters and unpaired surrogates anywhere in the plain input,
 * then transforms plain bodies and queries into DTOs, strips properties a DTO does not declare
 * (so role, group or user ids in a body are never assigned), and answers 422 with JSON field
 * names. Unknown keys are dropped rather than refused because Homebox clients send extra keys
 * (such as `id` in update bodies) and must keep working.
 */
export class TroveValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: false,
      forbidUnknownValues: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => ValidationFailedException.fromErrors(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    refuseUnstorableText(value, metadata);
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new TroveValidationPipe();
}

/**
 * A NUL character or an unpaired surrogate in a body (a value or a key, at any depth) is a 422
 * naming the field as `fields` does (`fields.0.name`); in a query or path parameter a 400 naming
 * the parameter. Other arguments (the caller, uploaded files) are not client text and pass.
 */
function refuseUnstorableText(value: unknown, metadata: ArgumentMetadata): void {
  if (metadata.type !== 'body' && metadata.type !== 'query' && metadata.type !== 'param') return;
  const found = findUnstorableText(value, metadata.data ?? '');
  if (found === undefined) return;
  const kind = PARAMETER_KINDS[metadata.type];
  const name = found.path === '' ? metadata.type : found.path;
  if (kind) throw new BadRequestException(`${kind} ${name} ${found.problem}`);
  throw ValidationFailedException.forField(name, `${name} ${found.problem}`);
}

/**
 * Text PostgreSQL cannot store: NUL, and UTF-16 surrogates without their pair (JSON can spell
 * them as `\ud800`; they have no UTF-8 form, and validators that encode text throw on them).
 */
function problemOf(text: string): string | undefined {
  if (text.includes(NUL)) return NUL_PROBLEM;
  if (UNPAIRED_SURROGATE.test(text)) return SURROGATE_PROBLEM;
  return undefined;
}

/** Keys as they can be shown in a field name. */
const printable = (key: string): string =>
  key.replaceAll(NUL, '\\u0000').replace(UNPAIRED_SURROGATES, '\uFFFD');

/**
 * The dotted path of the first string or key that cannot be stored (`''` for the value itself)
 * and what is wrong with it; undefined when there is none. Iterative, so no nesting can exhaust
 * the stack.
 */
function findUnstorableText(
  root: unknown,
  rootPath: string,
): { path: string; problem: string } | undefined {
  const pending: Array<{ value: unknown; path: string }> = [{ value: root, path: rootPath }];
  const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      const problem = problemOf(value);
      if (problem) return { path, problem };
      continue;
    }
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) continue;
    for (const [key, child] of Object.entries(value)) {
      const problem = problemOf(key);
      if (problem) return { path: join(path, printable(key)), problem };
      pending.push({ value: child, path: join(path, key) });
    }
  }
  return undefined;
}
