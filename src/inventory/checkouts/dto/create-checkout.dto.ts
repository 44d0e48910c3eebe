import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, IsUUID, Length, Max, MaxLength, Min } from 'class-validator';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';
import { StrictDay } from './checkout-day.js';

/** The longest a check-out's notes may be. */
export const MAX_CHECKOUT_NOTES = 1000;

/** The most a single check-out may count (the column is an integer). */
export const MAX_CHECKOUT_QUANTITY = 2_147_483_647;

/**
 * The body of POST /entities/{id}/checkouts: how many, to whom (exactly one of a member of the
 * group and a named outside borrower), until when and why. The service checks the rules that
 * need the group or the entity.
 */
export class CreateCheckoutDto {
  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    default: 1,
    description: 'How many; at most what is available',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CHECKOUT_QUANTITY)
  quantity?: number | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'A member of the group (any role); give this or borrower, not both',
  })
  @IsOptional()
  @IsUUID('all')
  memberId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: 255,
    example: 'Grace (next door)',
    description: 'The name of an outside borrower; give this or memberId, not both',
  })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 255)
  borrower?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2026-12-01',
    description:
      'When it should be back: YYYY-MM-DD, today or later in the reminders’ time zone; ' +
      'null or omitted: no due day',
  })
  @StrictDay()
  dueOn?: string | null;

  @ApiPropertyOptional({
    maxLength: MAX_CHECKOUT_NOTES,
    default: '',
    description: 'null or omitted: ""',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CHECKOUT_NOTES)
  notes?: string | null;
}
