import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsArray, IsBoolean, IsOptional, IsString, isUUID } from 'class-validator';

/** A query value of digits as a number; anything else is left for the validators to refuse. */
export const toIntegerQuery = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;

/** A query flag: `true` or `1` (any case) is true, anything else false, as Homebox reads them. */
export const BooleanQuery = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? ['true', '1'].includes(value.toLowerCase()) : value === true,
    ),
    IsOptional(),
    IsBoolean(),
  );

/** A repeatable query parameter as an array of strings (`?tags=a&tags=b` or `?tags=a`). */
export const ArrayQuery = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      value === undefined ? undefined : (Array.isArray(value) ? value : [value]).map(String),
    ),
    IsOptional(),
    IsArray(),
    IsString({ each: true }),
  );

/** A repeatable query parameter of ids; values that are not UUIDs are dropped, as Homebox does. */
export const UuidArrayQuery = (): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      value === undefined
        ? undefined
        : (Array.isArray(value) ? value : [value]).map(String).filter((id) => isUUID(id)),
    ),
    IsOptional(),
    IsArray(),
  );
