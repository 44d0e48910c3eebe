import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID, Length, MaxLength, ValidateIf } from 'class-validator';
import { IfPresent } from '../../../platform/http/validation/if-present.decorator.js';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';

/** The body of POST /tags. */
export class CreateTagDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Electronics' })
  @Trim()
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ maxLength: 1000, default: '' })
  @IfPresent()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({ maxLength: 255, default: '', example: '#3b82f6' })
  @IfPresent()
  @IsString()
  @MaxLength(255)
  color?: string;

  @ApiPropertyOptional({ maxLength: 255, default: '', example: 'mdi-chip' })
  @IfPresent()
  @IsString()
  @MaxLength(255)
  icon?: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description:
      'A tag of the same group to nest under; null, omitted or the zero UUID makes a root tag',
  })
  @ValidateIf((_dto: object, value: unknown) => value !== undefined && value !== null)
  @IsUUID('all')
  parentId?: string | null;
}
