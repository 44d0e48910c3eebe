import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsArray,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { NAME_PLACEHOLDERS_DESCRIPTION } from '../name-placeholders.js';

/**
 * The body of `POST /templates/{id}/create-item` (spec §4.9). Every member is optional: what is
 * omitted (or null) comes from the template.
 */
export class CreateEntityFromTemplateDto {
  @ApiPropertyOptional({
    type: String,
    maxLength: 255,
    nullable: true,
    example: 'Laptop {{counter}}',
    description:
      'Omitted, null or "": the template’s default name. The name must end up 1 to 255 ' +
      `characters long. ${NAME_PLACEHOLDERS_DESCRIPTION}`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string | null;

  @ApiPropertyOptional({
    type: String,
    maxLength: 1000,
    nullable: true,
    description: 'Omitted or null: the template’s default description',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'An entity of the group. Omitted or null: the template’s default location; the zero UUID: no parent',
  })
  @ValidateIf((_dto: object, value: unknown) => value !== undefined && value !== null)
  @IsUUID('all')
  parentId?: string | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    nullable: true,
    description: 'Omitted or null: the template’s default quantity',
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  quantity?: number | null;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    nullable: true,
    description:
      'Tags of the group. Omitted or null: the template’s default tags (those still existing); []: none',
  })
  @IsOptional()
  @IsArray()
  @IsUUID('all', { each: true })
  tagIds?: string[] | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'An entity type of the group. Omitted or null: the group’s default item type',
  })
  @IsOptional()
  @IsUUID('all')
  entityTypeId?: string | null;
}
