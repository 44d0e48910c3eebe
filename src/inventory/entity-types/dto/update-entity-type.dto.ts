import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IfPresent } from '../../../platform/http/validation/if-present.decorator.js';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';
import { DefaultTemplateIdField } from './default-template-id.decorator.js';

/**
 * A full replacement, as in Homebox: an omitted `isLocation`, `icon` or `defaultTemplateId`
 * takes its default (false, "", none). Only `description` is kept when omitted.
 */
export class UpdateEntityTypeDto {
  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    description: 'Ignored: the id in the path wins',
  })
  @Allow()
  id?: unknown;

  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Power tool' })
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({
    default: false,
    description: 'Entities of this type are locations or containers; omitted means false',
  })
  @IfPresent()
  @IsBoolean()
  isLocation?: boolean;

  @ApiPropertyOptional({ maxLength: 255, default: '', description: 'Omitted means ""' })
  @IfPresent()
  @IsString()
  @MaxLength(255)
  icon?: string;

  @ApiPropertyOptional({ maxLength: 1000, description: 'Omitted keeps the description' })
  @IfPresent()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @DefaultTemplateIdField()
  defaultTemplateId?: string | null;
}
