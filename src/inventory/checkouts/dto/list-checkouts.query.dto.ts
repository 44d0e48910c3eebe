import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { toIntegerQuery } from '../../../platform/http/validation/query-values.js';

export const CHECKOUT_STATUSES = ['open', 'overdue', 'returned'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** What the list may be narrowed to: a check-out's status, or `out` (open or overdue). */
export const CHECKOUT_FILTERS = [...CHECKOUT_STATUSES, 'out'] as const;
export type CheckoutFilterStatus = (typeof CHECKOUT_FILTERS)[number];

/** How the list may be ordered. */
export const CHECKOUT_SORTS = ['due', 'checkedOut', 'item', 'who'] as const;
export type CheckoutSort = (typeof CHECKOUT_SORTS)[number];

export const DEFAULT_CHECKOUT_PAGE_SIZE = 50;
export const MAX_CHECKOUT_PAGE_SIZE = 100;

/** The query of GET /checkouts. */
export class ListCheckoutsQueryDto {
  @ApiPropertyOptional({
    enum: CHECKOUT_FILTERS,
    description:
      'open: not fully returned and not past its due day; overdue: not fully returned and past ' +
      'its due day; out: not fully returned (open or overdue); returned: fully returned. ' +
      'Omitted: all',
  })
  @IsOptional()
  @IsIn(CHECKOUT_FILTERS)
  status?: CheckoutFilterStatus;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 3650,
    description:
      'Only check-outs not fully returned that are due between today and this many days after ' +
      '(today in `TROVE_REMINDERS_TIME_ZONE`)',
  })
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(0)
  @Max(3650)
  dueWithin?: number;

  @ApiPropertyOptional({
    enum: CHECKOUT_SORTS,
    default: 'due',
    description:
      'due: by due day (none last); checkedOut: by when it was lent; item: by the entity’s name; ' +
      'who: by the member’s or borrower’s name. Ties: oldest first',
  })
  @IsOptional()
  @IsIn(CHECKOUT_SORTS)
  sort?: CheckoutSort;

  @ApiPropertyOptional({ enum: ['asc', 'desc'], default: 'asc' })
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: 'asc' | 'desc';

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
