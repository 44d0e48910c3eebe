import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { isAllowedNotifierUrl, NOT_ALLOWED_MESSAGE } from './delivery/notifier-url.js';
import { CreateNotifierDto, NOTIFIER_URL_MAX_LENGTH } from './dto/create-notifier.dto.js';
import { NotifierOutDto } from './dto/notifier-out.dto.js';
import { TestNotifierDto } from './dto/test-notifier.dto.js';
import { UpdateNotifierDto } from './dto/update-notifier.dto.js';
import { NotifiersService } from './notifiers.service.js';
import { TooManyTestMessagesException } from './test-rate-limit.js';

@ApiTags('notifiers')
@ApiAuth()
@Controller('notifiers')
export class NotifiersController {
  constructor(private readonly notifiers: NotifiersService) {}

  @Get()
  @ApiOperation({ summary: "The caller's own notifiers in the group, sorted by name" })
  @ApiOkResponse({ type: [NotifierOutDto] })
  listNotifiers(@CurrentUser() user: AuthUser): Promise<NotifierOutDto[]> {
    return this.notifiers.list(user);
  }

  // Not @Idempotent(): the stored replay would keep the answer, and so the URL, in clear.
  @Post()
  @ApiOperation({
    summary: 'Create a notifier',
    description:
      'The URL must use an allowed Shoutrrr scheme (422 naming `url`); one whose target is an ' +
      'address Trove must not reach is refused with 400. As in Homebox, the form its service ' +
      'needs (token, webhook id, host, recipients) is checked when a message is sent, not here: ' +
      'a test answers 422 naming what is wrong, a delivery records it as `lastError`. The URL is ' +
      'stored encrypted.',
  })
  @ApiCreatedResponse({ type: NotifierOutDto })
  @ApiErrors(400, 422)
  createNotifier(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateNotifierDto,
  ): Promise<NotifierOutDto> {
    return this.notifiers.create(user, dto);
  }

  @Post('test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send "Test message from Trove" to a notifier URL now',
    description:
      'Answers 200 with body null once delivered. 422 for a URL its service cannot use (naming ' +
      'what is wrong under `url`) or a scheme Trove does not deliver to, 400 for an address ' +
      'Trove must not reach, 502 when the ' +
      'service cannot be reached or refuses. Rate limited per user and per client address ' +
      '(TROVE_NOTIFIER_TEST_RATE_LIMIT a minute; 429 with Retry-After).',
  })
  @ApiQuery({
    name: 'url',
    required: false,
    description: "The URL, as Homebox's contract sends it, when the body has none",
  })
  @ApiOkResponse({ schema: { type: 'object', nullable: true, example: null } })
  @ApiErrors(400, 422, 429, 502)
  async testNotifier(
    @CurrentUser() user: AuthUser,
    @Body() dto: TestNotifierDto,
    @Query('url') queryUrl: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const url = testUrlOf(dto.url, queryUrl);
    try {
      await this.notifiers.test(user, request.ip ?? '', url);
    } catch (error) {
      if (error instanceof TooManyTestMessagesException) {
        response.setHeader('Retry-After', String(error.retryAfterSeconds));
      }
      throw error;
    }
    response.status(200).json(null);
  }

  @Put(':id')
  @ApiOperation({
    summary: "Update one of the caller's notifiers; a null or omitted url keeps the stored one",
    description:
      'A new URL is checked as on create: an allowed scheme (422 naming `url`) and an address ' +
      'Trove may reach (400); the form its service needs is checked when a message is sent.',
  })
  @ApiUuidParam('id', 'Notifier id')
  @ApiOkResponse({ type: NotifierOutDto })
  @ApiErrors(400, 404, 422)
  updateNotifier(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: UpdateNotifierDto,
  ): Promise<NotifierOutDto> {
    return this.notifiers.update(user, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: "Delete one of the caller's notifiers (204 even when there is none)" })
  @ApiUuidParam('id', 'Notifier id')
  @ApiNoContentResponse()
  @ApiErrors(400)
  deleteNotifier(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<void> {
    return this.notifiers.remove(user, id);
  }
}

/** The URL to test: the body's, else the query's, checked as the body's is (422 naming `url`). */
function testUrlOf(bodyUrl: string | undefined, queryUrl: unknown): string {
  const url = bodyUrl ?? queryUrl;
  if (url === undefined) throw ValidationFailedException.forField('url', 'url is required');
  if (typeof url !== 'string' || url.length > NOTIFIER_URL_MAX_LENGTH) {
    throw ValidationFailedException.forField(
      'url',
      `url must be a string of at most ${NOTIFIER_URL_MAX_LENGTH} characters`,
    );
  }
  if (!isAllowedNotifierUrl(url))
    throw ValidationFailedException.forField('url', NOT_ALLOWED_MESSAGE);
  return url;
}
