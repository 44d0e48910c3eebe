import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { IfPresent } from '../../../platform/http/validation/if-present.decorator.js';
import { NOTIFIER_URL_MAX_LENGTH } from './create-notifier.dto.js';
import { IsNotifierUrl } from './notifier-url.decorator.js';

/** The body of POST /notifiers/test (the URL may come as a query parameter instead). */
export class TestNotifierDto {
  @ApiPropertyOptional({
    maxLength: NOTIFIER_URL_MAX_LENGTH,
    example: 'ntfy://ntfy.sh/my-topic',
    description: 'Required unless given as the `url` query parameter',
  })
  @IfPresent()
  @IsString()
  @MaxLength(NOTIFIER_URL_MAX_LENGTH)
  @IsNotifierUrl()
  url?: string;
}
