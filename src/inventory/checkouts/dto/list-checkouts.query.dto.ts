import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { toIntegerQuery } from '../../../platform/http/validation/query-values.js';

export const CHECKOUT_STATUSES = ['open', 'overdue', 'returned'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export const DEFAULT_CHECKOUT_PAGE_SIZE = 50;
export const MAX_CHECKOUT_PAGE_SIZE = 100;

/** The query of GET /checkouts. */
export class ListCheckoutsQueryDto {
  @ApiPropertyOptional({
    enum: CHECKOUT_STATUSES,
    description:
      'open: not fully returned and not past its due day; overdue: not fully returned and past ' +
      'its due day; returned: fully returned. Omitted: all',
  })
  @IsOptional()
  @IsIn(CHECKOUT_STATUSES)
  status?: CheckoutStatus;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only check-outs to this member' })
  @IsOptional()
  @IsUUID('all')
  memberId?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_CHECKOUT_PAGE_SIZE,
    default: DEFAULT_CHECKOUT_PAGE_SIZE,
  })
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(1)
  @Max(MAX_CHECKOUT_PAGE_SIZE)
  pageSize?: number;
}
