import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
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
import { FIELD_TYPES, type FieldType } from '../../entities/core/field-type.js';
import { TimeValue } from '../time-value.js';

/** Homebox clients send the zero UUID (or "") for a field that has no id yet. */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * A custom field of a template. In an update, a field with an id changes that field of the
 * template, one without an id (absent, null, "" or the zero UUID) is added. Every value is
 * kept, whatever the type. The fields are kept in the order sent.
 */
export class TemplateFieldInputDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'Update only: a field of this template; absent, null, "" or the zero UUID adds a field. ' +
      'Ignored on create.',
  })
  @Transform(({ value }: { value: unknown }) =>
    value === '' || value === NIL_UUID ? undefined : value,
  )
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

  @ApiPropertyOptional({
    type: 'integer',
    default: 0,
    minimum: -Number.MAX_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
  })
  @IsOptional()
  @IsInt()
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
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
