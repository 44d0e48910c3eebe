import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
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

  @ApiPropertyOptional({
    maxLength: 500,
    description:
      'A note on the return (its state, where it was left): added to the check-out’s notes as a ' +
      'line `Returned <YYYY-MM-DD>: <note>`; the notes, with it, may not pass 1000 characters',
  })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  notes?: string;
}
