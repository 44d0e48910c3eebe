import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import {
  ArrayQuery,
  BooleanQuery,
  UuidArrayQuery,
  toIntegerQuery,
} from '../../../../platform/http/validation/query-values.js';

export const ENTITY_ORDERS = ['name', 'createdAt', 'updatedAt', 'assetId'] as const;

export class ListEntitiesQueryDto {
  @ApiPropertyOptional({
    description:
      'Case-insensitive text search over name, description, serial number, model number, ' +
      'manufacturer, notes and custom-field values; `#000-123` (or `#123`) finds an asset id',
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  q?: string;

  @ApiPropertyOptional({
    minimum: 1,
    description: '1-based; send with pageSize. Without both, every match is returned',
  })
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(0)
  page?: number;

  @ApiPropertyOptional({ minimum: 1 })
  @IsOptional()
  @Transform(toIntegerQuery)
  @IsInt()
  @Min(0)
  pageSize?: number;

  @ApiPropertyOptional({
    type: [String],
    description: 'Tag ids; each includes its descendant tags; any matches',
  })
  @UuidArrayQuery()
  tags?: string[];

  @ApiPropertyOptional({ description: 'With tags: entities having none of them' })
  @BooleanQuery()
  negateTags?: boolean;

  @ApiPropertyOptional({ type: [String], description: 'Direct parent ids; any matches' })
  @UuidArrayQuery()
  parentIds?: string[];

  @ApiPropertyOptional({
    description: 'true: only locations (with itemCount); otherwise only items',
  })
  @BooleanQuery()
  isLocation?: boolean;

  @ApiPropertyOptional({ description: 'Only top-level entities' })
  @BooleanQuery()
  filterChildren?: boolean;

  @ApiPropertyOptional()
  @BooleanQuery()
  includeArchived?: boolean;

  @ApiPropertyOptional()
  @BooleanQuery()
  onlyWithPhoto?: boolean;

  @ApiPropertyOptional()
  @BooleanQuery()
  onlyWithoutPhoto?: boolean;

  @ApiPropertyOptional({
    type: [String],
    description: '`name=value` of a custom field (exact); any matches',
  })
  @ArrayQuery()
  fields?: string[];

  @ApiPropertyOptional({
    enum: ENTITY_ORDERS,
    description: 'createdAt and updatedAt newest first; others ascending',
  })
  @IsOptional()
  @IsString()
  orderBy?: string;
}
