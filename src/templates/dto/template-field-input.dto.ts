import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { FIELD_TYPES, type FieldType } from '../../common/field-type.js';
import { TimeValue } from '../time-value.js';

/** Bounds of the `integer` column a number value is stored in. */
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/**
 * A custom field of a template. In an update, a field with an id changes that field of the
 * template, one without an id is added. Every value is kept, whatever the type.
 */
export class TemplateFieldInputDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Update only: a field of this template. Ignored on create.',
  })
  @IsOptional()
  @IsUUID('all')
  id?: string | null;

  @ApiProperty({ enum: FIELD_TYPES })
  @IsIn(FIELD_TYPES)
  type: FieldType;

  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ maxLength: 500, default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  textValue?: string | null;

  @ApiPropertyOptional({ type: 'integer', default: 0, minimum: INT32_MIN, maximum: INT32_MAX })
  @IsOptional()
  @IsInt()
  @Min(INT32_MIN)
  @Max(INT32_MAX)
  numberValue?: number | null;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  booleanValue?: boolean | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-01-31T09:30:00Z',
    description: 'RFC 3339; null or "" for none',
  })
  @TimeValue()
  timeValue?: string | null;
}
