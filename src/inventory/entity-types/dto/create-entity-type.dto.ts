import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IfPresent } from '../../../platform/http/validation/if-present.decorator.js';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';
import { DefaultTemplateIdField } from './default-template-id.decorator.js';

export class CreateEntityTypeDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Power tool' })
  @Trim()
  @IsString()
  @IsNotEmpty({ message: 'name must not be empty' })
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({
    default: false,
    description: 'Entities of this type are locations or containers',
  })
  @IfPresent()
  @IsBoolean()
  isLocation?: boolean;

  @ApiPropertyOptional({ maxLength: 255, default: '', example: 'mdi-drill' })
  @IfPresent()
  @IsString()
  @MaxLength(255)
  icon?: string;

  @ApiPropertyOptional({ maxLength: 1000, default: '' })
  @IfPresent()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @DefaultTemplateIdField()
  defaultTemplateId?: string | null;
}
