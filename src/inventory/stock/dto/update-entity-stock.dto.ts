import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';

/** The largest quantity a setting holds (PostgreSQL `integer`). */
export const MAX_STOCK_QUANTITY = 2_147_483_647;
export const MAX_STOCK_NOTES = 1000;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar day written `YYYY-MM-DD`. */
export function isDay(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = DAY.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

/** A calendar day written exactly `YYYY-MM-DD`. */
const IsDay = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isDay',
      validator: {
        validate: isDay,
        defaultMessage: (args) => `${args?.property ?? 'value'} must be a date as YYYY-MM-DD`,
      },
    },
    options,
  );

/**
 * The body of PUT /entities/{id}/stock: a full replacement. Every field is optional; what is
 * omitted (or null) is cleared: the numbers and the day to none, the notes to "".
 */
export class UpdateEntityStockDto {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: MAX_STOCK_QUANTITY,
    example: 2,
    description: 'At or below this quantity the entity is low on stock; null or omitted: none',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_STOCK_QUANTITY)
  minQuantity?: number | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 0,
    maximum: MAX_STOCK_QUANTITY,
    example: 6,
    description: 'How many to buy when low; null or omitted: enough to get above the minimum',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_STOCK_QUANTITY)
  reorderQuantity?: number | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'date',
    example: '2027-03-31',
    description: 'When it expires, YYYY-MM-DD; null or omitted: never',
  })
  @IsOptional()
  @IsDay()
  expiresOn?: string | null;

  @ApiPropertyOptional({
    type: String,
    maxLength: MAX_STOCK_NOTES,
    nullable: true,
    example: 'the blue packet',
    description: 'null or omitted: ""',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_STOCK_NOTES)
  notes?: string | null;
}
