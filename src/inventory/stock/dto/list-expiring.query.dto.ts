import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { toIntegerQuery } from '../../../platform/http/validation/query-values.js';

export const DEFAULT_EXPIRY_WINDOW_DAYS = 30;
export const MAX_EXPIRY_WINDOW_DAYS = 3650;

/** The query of GET /stock/expiring. */
export class ListExpiringQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_EXPIRY_WINDOW_DAYS,
    default: DEFAULT_EXPIRY_WINDOW_DAYS,
    description: 'Days from today: what expires on or before today plus this many days',
  })
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(0)
  @Max(MAX_EXPIRY_WINDOW_DAYS)
  within?: number;
}
