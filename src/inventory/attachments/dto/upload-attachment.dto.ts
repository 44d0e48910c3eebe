import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  USER_ATTACHMENT_TYPES,
  type UserAttachmentType,
} from '../../entities/views/attachments/attachment-type.js';

/**
 * The multipart form of POST /entities/{id}/attachments (Homebox §11). Documentation only: the
 * service reads the form itself, so that a missing file and a missing name are reported together.
 */
export class UploadAttachmentDto {
  @ApiProperty({ type: 'string', format: 'binary', description: 'The file' })
  file: unknown;

  @ApiProperty({
    example: 'receipt.pdf',
    description:
      'The file name, with its extension; reduced to a safe base name (no path, no `..`, no ' +
      'control characters, at most 255 characters) and stored as the title',
  })
  name: string;

  @ApiPropertyOptional({
    enum: USER_ATTACHMENT_TYPES,
    description: 'Omitted: `photo` for image extensions (jpg, png, webp, ...), else `attachment`',
  })
  type?: UserAttachmentType;

  @ApiPropertyOptional({
    type: 'string',
    enum: ['true', 'false'],
    description:
      'Make this photo the entity’s only primary photo; the first photo of an entity is ' +
      'primary anyway, and only photos can be',
  })
  primary?: string;
}
