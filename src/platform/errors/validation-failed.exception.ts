import { UnprocessableEntityException } from '@nestjs/common';
import type { ValidationError } from 'class-validator';

export const VALIDATION_ERROR_MESSAGE = 'Validation Error';

/**
 * A 422 that names each bad field by its JSON name. It sits in the database layer because the
 * owned lookup (`owned.ts`) throws it for a body field that names a row of another group.
 */
export class ValidationFailedException extends UnprocessableEntityException {
  constructor(readonly fields: Record<string, string>) {
    super(VALIDATION_ERROR_MESSAGE);
  }

  static fromErrors(errors: ValidationError[]): ValidationFailedException {
    const fields: Record<string, string> = {};
    const walk = (list: ValidationError[], prefix: string): void => {
      for (const error of list) {
        const name = prefix + error.property;
        if (error.constraints) fields[name] = Object.values(error.constraints).join('; ');
        if (error.children?.length) walk(error.children, `${name}.`);
      }
    };
    walk(errors, '');
    return new ValidationFailedException(fields);
  }

  /** A 422 for one field, for rules checked in services. */
  static forField(field: string, message: string): ValidationFailedException {
    return new ValidationFailedException({ [field]: message });
  }
}
