import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { CalendarDate } from '../../../../platform/http/validation/calendar-date.js';
import { IsDecimalNumber } from '../../../../platform/http/validation/decimal-number.decorator.js';
import { IfPresent } from '../../../../platform/http/validation/if-present.decorator.js';
import { EntityFieldInputDto } from './entity-field-input.dto.js';

/** Prices keep at most four decimals. */
const MONEY_DECIMALS = 4;

/**
 * A full replacement of an entity's editable state, as Homebox's PUT: what is omitted is reset
 * (no tags, no parent, no dates, no custom fields, false, 0), except `entityTypeId`, which is
 * kept when omitted.
 */
export class UpdateEntityDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IfPresent()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ minimum: 0 })
  @IfPresent()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  quantity?: number;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Omitted or null: top level',
  })
  @ValidateIf((dto: UpdateEntityDto) => dto.parentId !== null && dto.parentId !== undefined)
  @IsUUID()
  parentId?: string | null;

  @ApiPropertyOptional({ format: 'uuid', description: 'Omitted keeps the current type' })
  @ValidateIf((dto: UpdateEntityDto) => dto.entityTypeId !== null && dto.entityTypeId !== undefined)
  @IsUUID()
  entityTypeId?: string | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'Omitted: no tags' })
  @IsOptional()
  @IsArray()
  @IsUUID('all', { each: true })
  tagIds?: string[] | null;

  @ApiPropertyOptional({
    type: [EntityFieldInputDto],
    description: 'Kept in the order given; omitted: no custom fields',
  })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => EntityFieldInputDto)
  fields?: EntityFieldInputDto[] | null;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'integer' }],
    example: '000-123',
    description: 'Omitted or empty: none',
  })
  @IsOptional()
  assetId?: string | number | null;

  @ApiPropertyOptional({ maxLength: 255 })
  @IfPresent()
  @IsString()
  @MaxLength(255)
  serialNumber?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @IfPresent()
  @IsString()
  @MaxLength(255)
  modelNumber?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @IfPresent()
  @IsString()
  @MaxLength(255)
  manufacturer?: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  insured?: boolean;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  archived?: boolean;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  lifetimeWarranty?: boolean;

  @ApiPropertyOptional({
    example: '2027-01-31',
    description: 'YYYY-MM-DD, MM/DD/YYYY or RFC 3339; "" or null: none',
  })
  @CalendarDate()
  warrantyExpires?: string | null;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IfPresent()
  @IsString()
  @MaxLength(1000)
  warrantyDetails?: string;

  @ApiPropertyOptional({ example: '2026-01-31' })
  @CalendarDate()
  purchaseDate?: string | null;

  @ApiPropertyOptional({ maxLength: 255 })
  @IfPresent()
  @IsString()
  @MaxLength(255)
  purchaseFrom?: string;

  @ApiPropertyOptional({ minimum: 0 })
  @IfPresent()
  @IsDecimalNumber(MONEY_DECIMALS)
  @Min(0)
  purchasePrice?: number;

  @ApiPropertyOptional({ example: '2026-06-30' })
  @CalendarDate()
  soldDate?: string | null;

  @ApiPropertyOptional({ maxLength: 255 })
  @IfPresent()
  @IsString()
  @MaxLength(255)
  soldTo?: string;

  @ApiPropertyOptional({ minimum: 0 })
  @IfPresent()
  @IsDecimalNumber(MONEY_DECIMALS)
  @Min(0)
  soldPrice?: number;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IfPresent()
  @IsString()
  @MaxLength(1000)
  soldNotes?: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IfPresent()
  @IsString()
  @MaxLength(1000)
  notes?: string;

  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  syncChildEntityLocations?: boolean;
}
