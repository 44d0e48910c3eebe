import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { IfPresent } from '../../../platform/http/validation/if-present.decorator.js';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';
import { NOTIFIER_URL_MAX_LENGTH } from './create-notifier.dto.js';
import { IsNotifierUrl } from './notifier-url.decorator.js';

/** The body of PUT /notifiers/{id}. */
export class UpdateNotifierDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @Trim()
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ description: 'Omitted: unchanged' })
  @IfPresent()
  @IsBoolean()
  isActive?: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: NOTIFIER_URL_MAX_LENGTH,
    description: 'A new URL; null or omitted keeps the stored one',
  })
  @ValidateIf((_dto: object, value: unknown) => value !== undefined && value !== null)
  @IsString()
  @MaxLength(NOTIFIER_URL_MAX_LENGTH)
  @IsNotifierUrl()
  url?: string | null;
}
