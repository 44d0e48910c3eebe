import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { Trim } from '../../../platform/http/validation/trim.decorator.js';
import {
  USER_ATTACHMENT_TYPES,
  type UserAttachmentType,
} from '../../entities/views/attachments/attachment-type.js';

export const LINK_URL_MAX_LENGTH = 2048;
export const LINK_URL_MESSAGE =
  'external_id must be an absolute http or https URL without user info';

/** Whether a string is an absolute http(s) URL with a host and no user name or password. */
export function isLinkUrl(value: unknown): boolean {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    url.username === '' &&
    url.password === ''
  );
}

/** One message per problem, rather than every rule's at once. */
function linkUrlMessage(value: unknown): string {
  if (value === undefined || value === null || value === '') return 'external_id is required';
  if (typeof value === 'string' && value.length > LINK_URL_MAX_LENGTH) {
    return `external_id must be shorter than or equal to ${LINK_URL_MAX_LENGTH} characters`;
  }
  return LINK_URL_MESSAGE;
}

const emptyToUndefined = ({ value }: { value: unknown }): unknown =>
  value === '' || value === null ? undefined : value;

/** The body of POST /entities/{id}/attachments/external: a link kept as an attachment. */
export class CreateExternalAttachmentDto {
  @ApiProperty({ enum: ['link'], description: 'The only kind of external attachment' })
  @IsIn(['link'], { message: 'source_type must be "link"' })
  source_type: 'link';

  @ApiProperty({ example: 'https://example.com/manual.pdf', maxLength: LINK_URL_MAX_LENGTH })
  @Trim()
  @ValidateBy({
    name: 'isLinkUrl',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && value.length <= LINK_URL_MAX_LENGTH && isLinkUrl(value),
      defaultMessage: (args) => linkUrlMessage(args?.value),
    },
  })
  external_id: string;

  @ApiPropertyOptional({
    maxLength: 255,
    description: 'Omitted or empty: the URL without its query and fragment',
  })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MaxLength(255)
  title?: string;

  @ApiPropertyOptional({ enum: USER_ATTACHMENT_TYPES, default: 'attachment' })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(USER_ATTACHMENT_TYPES)
  attachment_type?: UserAttachmentType;
}
