import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Length, MaxLength } from 'class-validator';
import { IfPresent } from '../../../platform/http/validation/if-present.decorator.js';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';
import { IsNotifierUrl } from './notifier-url.decorator.js';

/** Longest notifier URL accepted. */
export const NOTIFIER_URL_MAX_LENGTH = 2048;

/** The body of POST /notifiers. */
export class CreateNotifierDto {
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Family phone' })
  @Trim()
  @IsString()
  @Length(1, 255)
  name: string;

  @ApiPropertyOptional({ default: true })
  @IfPresent()
  @IsBoolean()
  isActive?: boolean;

  @ApiProperty({
    maxLength: NOTIFIER_URL_MAX_LENGTH,
    example: 'ntfy://ntfy.sh/my-topic',
    description:
      'A Shoutrrr URL of an allowed scheme; it may embed secrets and is stored encrypted',
  })
  @IsString()
  @MaxLength(NOTIFIER_URL_MAX_LENGTH)
  @IsNotifierUrl()
  url: string;
}
