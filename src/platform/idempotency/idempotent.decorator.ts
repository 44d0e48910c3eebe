import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto, ValidationErrorResponseDto } from '../errors/error-response.dto.js';
import { IDEMPOTENCY_HEADER, IdempotencyInterceptor } from './idempotency.interceptor.js';

/**
 * Marks a route whose repeat would do its work twice (a create, a return of part of a
 * check-out): it accepts an `Idempotency-Key` header, and a repeat with the same key by the same
 * user within 24 hours gets the first response again instead of doing anything, the response
 * being stored in the change's own transaction (see IdempotencyInterceptor, which runs on these
 * routes only).
 */
export const Idempotent = (): MethodDecorator =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_HEADER,
      required: false,
      description:
        'Up to 255 printable ASCII characters, unique per intended operation (a UUID, say). A ' +
        'repeat with the same key by the same user within 24 hours answers the first response ' +
        'again (with `Idempotent-Replayed: true`) and does nothing. The response is stored in ' +
        'the transaction of the change, so a retry after a lost answer gets it and changes ' +
        'nothing; a failed request does not use up its key.',
      schema: { type: 'string', maxLength: 255 },
    }),
    ApiResponse({
      status: 400,
      description: 'An Idempotency-Key that is empty, longer than 255 characters or not ASCII',
      type: ErrorResponseDto,
    }),
    ApiResponse({
      status: 409,
      description: 'A request with this Idempotency-Key is still in progress',
      type: ErrorResponseDto,
    }),
    ApiResponse({
      status: 422,
      description: 'The Idempotency-Key was used for a different request (`fields` says so)',
      type: ValidationErrorResponseDto,
    }),
  );
