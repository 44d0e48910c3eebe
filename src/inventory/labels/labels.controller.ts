import {
  applyDecorators,
  Controller,
  Get,
  Param,
  Query,
  Req,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { AllowAttachmentToken } from '../../identity/auth/decorators/allow-attachment-token.decorator.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ErrorResponseDto } from '../../platform/errors/error-response.dto.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { LabelQueryDto } from './dto/label.query.dto.js';
import { QrCodeQueryDto } from './dto/qr-code.query.dto.js';
import { LabelsService, type LabelResult } from './labels.service.js';

const PNG_CONTENT = { 'image/png': { schema: { type: 'string', format: 'binary' } } };

/** Documents a label route: a PNG, or `Printed!` with `print=true`, and its errors. */
const ApiLabel = (): MethodDecorator =>
  applyDecorators(
    ApiProduces('image/png', 'text/plain'),
    ApiOkResponse({
      description: 'The label (PNG of the configured size), or `Printed!` with `print=true`',
      content: {
        ...PNG_CONTENT,
        'text/plain': { schema: { type: 'string', example: 'Printed!' } },
      },
    }),
    ApiResponse({
      status: 422,
      description: '`print=true` but no print command is configured',
      type: ErrorResponseDto,
    }),
    ApiResponse({
      status: 502,
      description: 'The print command failed (exit code, signal or timeout in the message)',
      type: ErrorResponseDto,
    }),
  );

function labelResponse(result: LabelResult): StreamableFile {
  return result.printed
    ? new StreamableFile(Buffer.from('Printed!'), { type: 'text/plain; charset=utf-8' })
    : new StreamableFile(result.png, {
        type: 'image/png',
        disposition: 'inline; filename="label.png"',
      });
}

/** `<scheme>://<host>` of the request; behind a trusted proxy, the forwarded ones. */
const origin = (request: Request): string => `${request.protocol}://${request.host}`;

@ApiTags('labels')
@ApiAuth()
@Controller('qrcode')
export class QrCodesController {
  constructor(private readonly labels: LabelsService) {}

  @Get()
  @AllowAttachmentToken()
  @ApiOperation({
    summary: 'A QR code of a text, as PNG (error correction M, quiet zone of 4 modules)',
    description: 'Also accepts the attachment token as `?access_token=`, for `<img>` sources.',
  })
  @ApiProduces('image/png')
  @ApiOkResponse({ description: 'PNG image, at least 256 × 256 pixels', content: PNG_CONTENT })
  @ApiErrors(422)
  async getQrCode(@Query() query: QrCodeQueryDto): Promise<StreamableFile> {
    return new StreamableFile(await this.labels.qrCode(query.data), {
      type: 'image/png',
      disposition: 'inline; filename="qrcode.png"',
    });
  }
}

@ApiTags('labels')
@ApiAuth()
@Controller('labelmaker')
export class LabelsController {
  constructor(private readonly labels: LabelsService) {}

  @Get('entity/:id')
  @ApiOperation({ summary: 'Label of an entity: QR code, name, asset id and location path' })
  @ApiUuidParam('id', 'Entity id')
  @ApiLabel()
  @ApiErrors(400, 404)
  async getEntityLabel(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Query() query: LabelQueryDto,
    @Req() request: Request,
  ): Promise<StreamableFile> {
    return labelResponse(
      await this.labels.entityLabel(user, id, {
        print: query.print ?? false,
        origin: origin(request),
      }),
    );
  }

  @Get('item/:id')
  @ApiOperation({ summary: 'Label of an entity (Homebox’s name for the same route)' })
  @ApiUuidParam('id', 'Entity id')
  @ApiLabel()
  @ApiErrors(400, 404)
  async getItemLabel(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Query() query: LabelQueryDto,
    @Req() request: Request,
  ): Promise<StreamableFile> {
    return this.getEntityLabel(user, id, query, request);
  }

  @Get('location/:id')
  @ApiOperation({ summary: 'Label of an entity (Homebox’s name for the same route)' })
  @ApiUuidParam('id', 'Entity id')
  @ApiLabel()
  @ApiErrors(400, 404)
  async getLocationLabel(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Query() query: LabelQueryDto,
    @Req() request: Request,
  ): Promise<StreamableFile> {
    return this.getEntityLabel(user, id, query, request);
  }

  @Get('asset/:assetId')
  @ApiOperation({
    summary: 'Label of the entity with an asset id; its QR code links to `/a/<asset id>`',
  })
  @ApiParam({ name: 'assetId', description: 'Asset id (`000-123` or `123`)', example: '000-123' })
  @ApiLabel()
  @ApiErrors(400, 404)
  async getAssetLabel(
    @CurrentUser() user: AuthUser,
    @Param('assetId') assetId: string,
    @Query() query: LabelQueryDto,
    @Req() request: Request,
  ): Promise<StreamableFile> {
    return labelResponse(
      await this.labels.assetLabel(user, assetId, {
        print: query.print ?? false,
        origin: origin(request),
      }),
    );
  }
}
