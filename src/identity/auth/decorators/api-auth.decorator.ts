import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { ApiErrors } from '../../../platform/http/api-errors.decorator.js';

/** Documents what the guards enforce: a bearer token, and 401/403 answers. */
export const ApiAuth = (): MethodDecorator & ClassDecorator =>
  applyDecorators(ApiBearerAuth(), ApiErrors(401, 403));
