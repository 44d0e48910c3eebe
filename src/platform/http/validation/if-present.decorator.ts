import { ValidateIf } from 'class-validator';

/**
 * Validates a property only when the key is present. Unlike @IsOptional(), null is validated
 * (and so refused by a type rule) rather than let through to be written.
 */
export const IfPresent = (): PropertyDecorator =>
  ValidateIf((_object: object, value: unknown) => value !== undefined);
