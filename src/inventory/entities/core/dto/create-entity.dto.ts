import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsArray,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { IfPresent } from '../../../../platform/http/validation/if-present.decorator.js';

/** Spec §4.8, plus `modelNumber` and `manufacturer` as Homebox accepts them. */
export class CreateEntityDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IfPresent()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Defaults to the group’s item type' })
  @IfPresent()
  @IsUUID()
  entityTypeId?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'An entity of the group',
  })
  @ValidateIf((dto: CreateEntityDto) => dto.parentId !== null && dto.parentId !== undefined)
  @IsUUID()
  parentId?: string | null;

  @ApiPropertyOptional({ minimum: 0, default: 1 })
  @IfPresent()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  quantity?: number;

  @ApiPropertyOptional({ type: [String], format: 'uuid' })
  @IsOptional()
  @IsArray()
  @IsUUID('all', { each: true })
  tagIds?: string[] | null;

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
}
