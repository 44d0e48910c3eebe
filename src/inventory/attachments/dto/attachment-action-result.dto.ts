import { ApiProperty } from '@nestjs/swagger';

/** What an attachment maintenance action did. */
export class AttachmentActionResultDto {
  @ApiProperty({ example: 3, description: 'How many attachments the action changed or made' })
  completed: number;
}
