import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { toIntegerQuery } from '../../../platform/http/validation/query-values.js';

export const DEFAULT_ADMIN_PAGE_SIZE = 50;
export const MAX_ADMIN_PAGE_SIZE = 100;

/** The paging of the instance administrators' lists (users, groups, instance backups). */
export class AdminPageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10000, default: 1 })
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(1)
  @Max(10000)
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_ADMIN_PAGE_SIZE,
    default: DEFAULT_ADMIN_PAGE_SIZE,
  })
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(1)
  @Max(MAX_ADMIN_PAGE_SIZE)
  pageSize?: number;
}

/** The query of the instance administrators' lists of users and of groups. */
export class AdminListQueryDto extends AdminPageQueryDto {
  @ApiPropertyOptional({
    maxLength: 255,
    description: 'Only those whose name (or, for users, e-mail address) contains this, any case',
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  q?: string;
}
