import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const DEFAULT_EXPIRY_WINDOW_DAYS = 30;
export const MAX_EXPIRY_WINDOW_DAYS = 3650;

const toInt = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;

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
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(MAX_EXPIRY_WINDOW_DAYS)
  within?: number;
}
