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
import { FIELD_TYPES, type FieldType } from '../field-type.js';

/** Homebox clients send the zero UUID (or "") for a field that has no id yet. */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * A custom field in an update: with an id it updates that field, without one (absent, null, ""
 * or the zero UUID) it adds one. The fields are kept in the order sent.
 */
export class EntityFieldInputDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'A field of this entity; absent, null, "" or the zero UUID adds a field',
  })
  @Transform(({ value }: { value: unknown }) =>
    value === '' || value === NIL_UUID ? undefined : value,
  )
  @IsOptional()
  @IsUUID()
  id?: string | null;

  @ApiProperty({ enum: FIELD_TYPES })
  @IsIn(FIELD_TYPES)
  type: FieldType;

  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  textValue?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: -Number.MAX_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
  })
  @IsOptional()
  @IsInt()
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  numberValue?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  booleanValue?: boolean;
}
