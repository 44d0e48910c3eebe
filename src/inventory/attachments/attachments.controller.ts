import { pipeline } from 'node:stream/promises';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Logger,
  Post,
  Put,
  Req,
  Res,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { AllowAttachmentToken } from '../../identity/auth/decorators/allow-attachment-token.decorator.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import type { JsonText } from '../../platform/http/json-text.js';
import { Idempotent } from '../../platform/idempotency/idempotency.interceptor.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { EntitySummaryDto } from '../entities/views/dto/entity-summary.dto.js';
import {
  AttachmentDownloadsService,
  type DownloadResponse,
} from './attachment-downloads.service.js';
import { AttachmentsService } from './attachments.service.js';
import type { DownloadConditions } from './download-rules.js';
import { CreateExternalAttachmentDto } from './dto/create-external-attachment.dto.js';
import { UpdateAttachmentDto } from './dto/update-attachment.dto.js';
import { UploadAttachmentDto } from './dto/upload-attachment.dto.js';
import type { StagedUpload } from '../../platform/http/upload/staged-upload.engine.js';
import { UploadErrorsInterceptor } from '../../platform/http/upload/upload-errors.interceptor.js';

const header = (request: Request, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

const conditionsOf = (request: Request): DownloadConditions => ({
  range: header(request, 'range'),
  ifRange: header(request, 'if-range'),
  ifNoneMatch: header(request, 'if-none-match'),
  ifModifiedSince: header(request, 'if-modified-since'),
});

/** The attachments of one entity, under the entity's path (Homebox §11). */
@ApiTags('attachments')
@ApiAuth()
@Controller('entities')
export class AttachmentsController {
  private readonly logger = new Logger('AttachmentsController');

  constructor(
    private readonly attachments: AttachmentsService,
    private readonly downloads: AttachmentDownloadsService,
  ) {}

  @Post(':id/attachments')
  @Idempotent()
  @UseInterceptors(UploadErrorsInterceptor, FileInterceptor('file'))
  @ApiOperation({
    summary: 'Upload a file as an attachment of an entity',
    description:
      'The MIME type is read from the content, never taken from the client. Identical files ' +
      'in a group are stored once. The first photo of an entity becomes its primary photo; a ' +
      'photo gets a WebP thumbnail shortly after the response.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: UploadAttachmentDto })
  @ApiUuidParam('id', 'Entity id')
  @ApiCreatedResponse({ type: EntitySummaryDto, description: 'The entity with the attachment' })
  @ApiErrors(400, 404, 413, 422)
  uploadAttachment(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @UploadedFile() file: StagedUpload | undefined,
    @Body() form: Record<string, unknown>,
  ): Promise<JsonText<EntitySummaryDto>> {
    return this.attachments.upload(user, id, file, form);
  }

  @Post(':id/attachments/external')
  @Idempotent()
  @ApiOperation({
    summary: 'Keep a link (an http or https URL) as an attachment of an entity',
    description: 'Downloading it redirects to the URL.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiCreatedResponse({ type: EntitySummaryDto, description: 'The entity with the attachment' })
  @ApiErrors(400, 404, 422)
  createExternalAttachment(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: CreateExternalAttachmentDto,
  ): Promise<JsonText<EntitySummaryDto>> {
    return this.attachments.createExternal(user, id, dto);
  }

  @Get(':id/attachments/:attachment_id')
  @AllowAttachmentToken()
  @ApiOperation({
    summary: 'Download an attachment (or a photo’s thumbnail, by its id)',
    description:
      'Also accepts the attachment token as `?access_token=`. A link answers 302 to its URL. ' +
      'A file is sent with its stored MIME type, ETag and Last-Modified (304 to a matching ' +
      'If-None-Match or If-Modified-Since) and one byte range on request (206, or 416). Safe ' +
      'images and PDF are inline, anything else a download, and a sandboxing ' +
      'Content-Security-Policy keeps a browser from running anything in the file.',
  })
  @ApiProduces('*/*')
  @ApiUuidParam('id', 'Entity id')
  @ApiUuidParam('attachment_id', 'Attachment id')
  @ApiOkResponse({ description: 'The file', schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 206, description: 'The requested byte range' })
  @ApiResponse({ status: 302, description: 'A link: redirect to its URL' })
  @ApiResponse({ status: 304, description: 'Not modified' })
  @ApiErrors(400, 404, 416)
  async downloadAttachment(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @UuidParam('attachment_id') attachmentId: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const answer = await this.downloads.prepare(
      user,
      id,
      attachmentId,
      request.method,
      conditionsOf(request),
    );
    await this.send(response, answer);
  }

  @Put(':id/attachments/:attachment_id')
  @ApiOperation({
    summary: 'Replace the type, title and primary flag of an attachment',
    description:
      'A full replacement: omitted primary is false. Only a photo can be primary, and making ' +
      'one primary clears the entity’s other photos.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiUuidParam('attachment_id', 'Attachment id')
  @ApiOkResponse({ type: EntitySummaryDto })
  @ApiErrors(400, 404, 422)
  updateAttachment(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @UuidParam('attachment_id') attachmentId: string,
    @Body() dto: UpdateAttachmentDto,
  ): Promise<JsonText<EntitySummaryDto>> {
    return this.attachments.update(user, id, attachmentId, dto);
  }

  @Delete(':id/attachments/:attachment_id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an attachment',
    description:
      'A photo’s thumbnail goes with it. The stored file is deleted once no attachment uses it.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiUuidParam('attachment_id', 'Attachment id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  deleteAttachment(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @UuidParam('attachment_id') attachmentId: string,
  ): Promise<void> {
    return this.attachments.remove(user, id, attachmentId);
  }

  /** Writes a download; the bytes are opened first, so a failure to open is a normal error. */
  private async send(response: Response, answer: DownloadResponse): Promise<void> {
    const body = answer.open ? await answer.open() : undefined;
    response.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    if (answer.json) {
      response.json(answer.json);
    } else if (!body) {
      response.end();
    } else {
      try {
        await pipeline(body, response);
      } catch (error) {
        // The client went away, or the store failed mid-way; the response is cut short.
        if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
          this.logger.warn(
            `download cut short: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    }
  }
}
