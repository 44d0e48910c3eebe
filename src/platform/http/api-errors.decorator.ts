import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto, ValidationErrorResponseDto } from '../errors/error-response.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request: bad JSON, a body nested too deeply, a NUL character in a parameter, or a path id that is not a UUID',
  401: 'No token, or the token is unknown, expired or revoked',
  403: 'The caller may not do this (role, group membership, or token kind)',
  404: 'Not found in the caller’s group',
  409: 'Conflicts with stored data',
  410: 'No longer usable (expired or used up)',
  413: 'Request body too large',
  422: 'Validation failed; `fields` says what is wrong with each field',
  429: 'Too many attempts; see Retry-After',
  500: 'Unexpected error; the body carries a request id',
  503: 'Not ready',
};

/** Documents error responses, each with the one error body shape. */
export const ApiErrors = (...statuses: number[]): MethodDecorator & ClassDecorator =>
  applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status] ?? 'Error',
        type: status === 422 ? ValidationErrorResponseDto : ErrorResponseDto,
      }),
    ),
  );
