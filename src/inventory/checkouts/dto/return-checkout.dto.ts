import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_CHECKOUT_QUANTITY } from './create-checkout.dto.js';

/** The body of POST /entities/{id}/checkouts/{checkoutId}/return (it may be empty). */
export class ReturnCheckoutDto {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    description: 'How many come back; at most what is outstanding. Omitted: all of it',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CHECKOUT_QUANTITY)
  quantity?: number | null;
}
