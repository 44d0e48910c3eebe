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
import { IfPresent } from '../../../platform/http/validation/if-present.decorator.js';
import { NAME_PLACEHOLDERS_DESCRIPTION } from '../name-placeholders.js';
import { TemplateFieldInputDto } from './template-field-input.dto.js';

const KEPT = 'On update, omitted or null leaves it unchanged.';

/**
 * Homebox's EntityTemplateCreate. Omitted or null defaults take the stored defaults
 * (`defaultQuantity` 1, texts ""); omitted flags are false.
 */
export class CreateTemplateDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Laptop' })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ maxLength: 1000, default: '' })
  @IfPresent()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ maxLength: 1000, default: '' })
  @IfPresent()
  @IsString()
  @MaxLength(1000)
  notes?: string;

  @ApiPropertyOptional({ type: Number, minimum: 0, default: 1, nullable: true, description: KEPT })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  defaultQuantity?: number | null;

  @ApiPropertyOptional({
    type: String,
    maxLength: 255,
    nullable: true,
    example: 'Laptop {{counter}}',
    description: `The name of entities created from the template. ${NAME_PLACEHOLDERS_DESCRIPTION} ${KEPT}`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  defaultName?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 1000, nullable: true, description: KEPT })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  defaultDescription?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 255, nullable: true, description: KEPT })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  defaultManufacturer?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 255, nullable: true, description: KEPT })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  defaultModelNumber?: string | null;

  @ApiPropertyOptional({ type: String, maxLength: 1000, nullable: true, description: KEPT })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  defaultWarrantyDetails?: string | null;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    description: 'Tags of the group; omitted, null or empty: none',
  })
  @IsOptional()
  @IsArray()
  @IsUUID('all', { each: true })
  defaultTagIds?: string[] | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'An entity of the group; omitted, null or the zero UUID: none',
  })
  @ValidateIf((_dto: object, value: unknown) => value !== undefined && value !== null)
  @IsUUID('all')
  defaultLocationId?: string | null;

  @ApiPropertyOptional({ default: false })
  @IfPresent()
  @IsBoolean()
  defaultInsured?: boolean;

  @ApiPropertyOptional({ default: false })
  @IfPresent()
  @IsBoolean()
  defaultLifetimeWarranty?: boolean;

  @ApiPropertyOptional({ default: false, description: 'A hint for clients only' })
  @IfPresent()
  @IsBoolean()
  includeWarrantyFields?: boolean;

  @ApiPropertyOptional({ default: false, description: 'A hint for clients only' })
  @IfPresent()
  @IsBoolean()
  includePurchaseFields?: boolean;

  @ApiPropertyOptional({ default: false, description: 'A hint for clients only' })
  @IfPresent()
  @IsBoolean()
  includeSoldFields?: boolean;

  @ApiPropertyOptional({
    type: [TemplateFieldInputDto],
    description: 'Custom fields, kept in the order given; omitted or null: none',
  })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => TemplateFieldInputDto)
  fields?: TemplateFieldInputDto[] | null;
}
