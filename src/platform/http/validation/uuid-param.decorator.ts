import { applyDecorators, BadRequestException, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';

/**
 * A path parameter that must be a UUID; anything else is a 400 naming the parameter,
 * as `invalid route key: <name>`.
 */
export const UuidParam = (name: string): ParameterDecorator =>
  Param(
    name,
    new ParseUUIDPipe({
      exceptionFactory: () => new BadRequestException(`invalid route key: ${name}`),
    }),
  );

/** Documents a UUID path parameter. */
export const ApiUuidParam = (name: string, description: string): MethodDecorator & ClassDecorator =>
  applyDecorators(ApiParam({ name, description, format: 'uuid', type: String }));
