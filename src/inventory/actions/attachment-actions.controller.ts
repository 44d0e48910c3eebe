import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { AttachmentsService } from '../attachments/attachments.service.js';
import { AttachmentActionResultDto } from '../attachments/dto/attachment-action-result.dto.js';
import { ThumbnailsService } from '../attachments/thumbnails.service.js';

/** Maintenance actions on the group's photos (Homebox §19). */
@ApiTags('actions')
@ApiAuth()
@Controller('actions')
export class AttachmentActionsController {
  constructor(
    private readonly attachments: AttachmentsService,
    private readonly thumbnails: ThumbnailsService,
  ) {}

  @Post('create-missing-thumbnails')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Make the thumbnails the group’s photos lack',
    description:
      'Done before answering; `completed` is the number made (0 when thumbnails are disabled).',
  })
  @ApiOkResponse({ type: AttachmentActionResultDto })
  createMissingThumbnails(@CurrentUser() user: AuthUser): Promise<AttachmentActionResultDto> {
    return this.thumbnails.createMissing(user);
  }

  @Post('set-primary-photos')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give each entity with photos but no primary photo one (its oldest)',
    description: '`completed` is the number of photos made primary.',
  })
  @ApiOkResponse({ type: AttachmentActionResultDto })
  setPrimaryPhotos(@CurrentUser() user: AuthUser): Promise<AttachmentActionResultDto> {
    return this.attachments.setPrimaryPhotos(user);
  }
}
