import { ValidationPipe } from '@nestjs/common';
import { ValidationFailedException } from '../errors/validation-failed.exception.js';

/**
 * The global pipe: transforms plain bodies and queries into DTOs, strips properties a DTO does
 * not declare (so role, group or user ids in a body are never assigned), and answers 422 with
 * JSON field names. Unknown keys are dropped rather than refused because Homebox clients send
 * extra keys (such as `id` in update bodies) and must keep working.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: false,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => ValidationFailedException.fromErrors(errors),
  });
}
