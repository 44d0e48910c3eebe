import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { CalendarDate } from '../../../platform/http/validation/calendar-date.js';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';

/** A cost as Homebox sends it: a non-negative decimal written as text, at most 4 decimals. */
export const COST_PATTERN = /^\d{1,12}(\.\d{1,4})?$/;
export const COST_MESSAGE =
  'cost must be a non-negative amount written as text with at most 4 decimals, such as "12.50"';
export const NO_DATE_MESSAGE = 'either completedDate or scheduledDate must be set';

const DATE_FORMATS = 'YYYY-MM-DD, MM/DD/YYYY or RFC 3339 (time dropped); "", null or omitted: none';

/**
 * The body of POST /entities/{id}/maintenance (spec §4.2). At least one of the two dates must
 * be set; the service checks that, as it needs both values.
 */
export class CreateMaintenanceEntryDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Replace the filter' })
  @Trim()
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ maxLength: 2500, default: '', description: 'null or omitted: ""' })
  @IsOptional()
  @IsString()
  @MaxLength(2500)
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2026-03-01',
    description: `When the work was done: ${DATE_FORMATS}`,
  })
  @CalendarDate()
  completedDate?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2026-09-01',
    description: `When the work is due: ${DATE_FORMATS}`,
  })
  @CalendarDate()
  scheduledDate?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '12.50',
    pattern: COST_PATTERN.source,
    description:
      'A non-negative amount written as text (not a JSON number), at most 4 decimals; null or omitted: 0',
  })
  @IsOptional()
  @Matches(COST_PATTERN, { message: COST_MESSAGE })
  cost?: string | null;
}
