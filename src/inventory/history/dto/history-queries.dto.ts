import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { toIntegerQuery } from '../../../platform/http/validation/query-values.js';
import { HISTORY_ACTIONS, type HistoryAction } from '../entity-history.record.js';

/** Paging of the history: page 1 and 50 entries unless asked. */
export class HistoryPageQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 50 })
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(1)
  @Max(500)
  pageSize?: number;
}

/** The query of GET /audit. */
export class AuditQueryDto extends HistoryPageQueryDto {
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Changes at or after this time (RFC 3339, or a day `YYYY-MM-DD` in UTC)',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Changes before this time (RFC 3339, or a day `YYYY-MM-DD` in UTC)',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Changes made by this user' })
  @IsOptional()
  @IsUUID('all')
  actorId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Changes of this entity' })
  @IsOptional()
  @IsUUID('all')
  entityId?: string;

  @ApiPropertyOptional({
    enum: HISTORY_ACTIONS,
    enumName: 'HistoryAction',
    description: 'Changes of this kind: the entity created, updated or deleted',
  })
  @IsOptional()
  @IsIn(HISTORY_ACTIONS)
  action?: HistoryAction;
}
