import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import {
  USER_ATTACHMENT_TYPES,
  type UserAttachmentType,
} from '../../entities/views/attachments/attachment-type.js';

/** The body of PUT /entities/{id}/attachments/{attachment_id}: a full replacement. */
export class UpdateAttachmentDto {
  @ApiProperty({ enum: USER_ATTACHMENT_TYPES })
  @IsIn(USER_ATTACHMENT_TYPES)
  type: UserAttachmentType;

  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Front view.jpg' })
  @IsString()
  @Length(1, 255)
  @Matches(/^[^\p{Cc}]*$/u, { message: 'title must not contain control characters' })
  title: string;

  @ApiPropertyOptional({
    default: false,
    description:
      'Make this photo the entity’s only primary photo (omitted: false); a non-photo is never primary',
  })
  @IsOptional()
  @IsBoolean()
  primary?: boolean;
}
