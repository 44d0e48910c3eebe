import { ApiProperty } from '@nestjs/swagger';
import { ATTACHMENT_TYPES, type AttachmentType } from './attachment-type.js';

/** An attachment in the stored view (spec §2.2, `thumbnail`): snake_case, with edges. */
export class AttachmentStoredDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;

  @ApiProperty()
  mime_type: string;

  @ApiProperty()
  path: string;

  @ApiProperty()
  primary: boolean;

  @ApiProperty()
  title: string;

  @ApiProperty({ enum: ATTACHMENT_TYPES })
  type: AttachmentType;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Loaded relations (entity)',
  })
  edges: Record<string, unknown>;
}

/** An attachment in the summary view (spec §2.2). */
export class AttachmentSummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty()
  mimeType: string;

  @ApiProperty()
  path: string;

  @ApiProperty()
  primary: boolean;

  @ApiProperty()
  title: string;

  @ApiProperty({ enum: ATTACHMENT_TYPES })
  type: AttachmentType;

  @ApiProperty({
    type: AttachmentStoredDto,
    nullable: true,
    description: 'The photo’s thumbnail, when made',
  })
  thumbnail: AttachmentStoredDto | null;
}
