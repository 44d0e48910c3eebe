import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsString, Length, Max, Min, NotEquals } from 'class-validator';
import { IfPresent } from '../../../platform/http/validation/if-present.decorator.js';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';

/** The largest quantity an adjustment sets or a change moves by. */
export const MAX_ADJUSTED_QUANTITY = 1_000_000_000;
export const MAX_ADJUSTMENT_REASON = 500;

const NUMBER = { allowNaN: false, allowInfinity: false };

/**
 * The body of POST /entities/{id}/stock/adjustments: the new quantity, or a change of it (added,
 * or taken away when negative), never both; and why.
 */
export class CreateStockAdjustmentDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_ADJUSTED_QUANTITY,
    example: 2,
    description: 'The quantity it now has; give this or `change`',
  })
  @IfPresent()
  @IsNumber(NUMBER)
  @Min(0)
  @Max(MAX_ADJUSTED_QUANTITY)
  quantity?: number;

  @ApiPropertyOptional({
    minimum: -MAX_ADJUSTED_QUANTITY,
    maximum: MAX_ADJUSTED_QUANTITY,
    example: -3,
    description: 'How many were added (negative: taken away); give this or `quantity`',
  })
  @IfPresent()
  @IsNumber(NUMBER)
  @NotEquals(0, { message: 'change must not be 0' })
  @Min(-MAX_ADJUSTED_QUANTITY)
  @Max(MAX_ADJUSTED_QUANTITY)
  change?: number;

  @ApiProperty({
    minLength: 1,
    maxLength: MAX_ADJUSTMENT_REASON,
    example: 'used for the spring clean',
    description: 'Why the quantity changed; kept with the adjustment and in the history',
  })
  @Trim()
  @IsString()
  @Length(1, MAX_ADJUSTMENT_REASON)
  reason: string;
}
