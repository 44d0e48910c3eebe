import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../auth/decorators/public.decorator.js';
import { TooManyAttemptsException } from '../auth/login-throttle.service.js';
import { ErrorResponseDto } from '../../platform/errors/error-response.dto.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { ForgotPasswordDto } from './dto/forgot-password.dto.js';
import { ResetPasswordDto } from './dto/reset-password.dto.js';
import { PasswordResetsService } from './password-resets.service.js';

const DISABLED = 'Demo mode, or local login is not enabled';
const THROTTLED_RESPONSE = {
  status: 429,
  description: 'Too many requests',
  type: ErrorResponseDto,
  headers: {
    'Retry-After': { description: 'Seconds until a retry', schema: { type: 'integer' } },
  },
} as const;

/** Sets Retry-After when the throttle refuses. */
async function withRetryAfter(response: Response, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof TooManyAttemptsException) {
      response.setHeader('Retry-After', String(error.retryAfterSeconds));
    }
    throw error;
  }
}

@ApiTags('users')
@Controller('users')
export class PasswordResetsController {
  constructor(private readonly resets: PasswordResetsService) {}

  @Public()
  @Post('forgot-password')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Mail a password reset link',
    description:
      'Answers 204 whether or not a user has the address: a link valid for one hour is mailed ' +
      'later, and only to an enabled user with a password (not one who only signs in through ' +
      'OIDC), when ' +
      'mail (TROVE_MAILER_*) and TROVE_OPTIONS_HOSTNAME are configured. A new link replaces the ' +
      'older unused ones. Every request counts: after TROVE_AUTH_RATE_LIMIT_MAX_ATTEMPTS ' +
      'requests for one address (four times as many from one client address) within the ' +
      'window, 429 with Retry-After. A missing or malformed e-mail is a 422 naming `email` ' +
      '(Homebox answers 400).',
  })
  @ApiNoContentResponse({ description: 'Accepted; a mail follows if the address has an account' })
  @ApiResponse({ status: 403, description: DISABLED, type: ErrorResponseDto })
  @ApiResponse(THROTTLED_RESPONSE)
  @ApiErrors(400, 422)
  async forgotPassword(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Body() dto: ForgotPasswordDto,
  ): Promise<void> {
    await withRetryAfter(response, () => this.resets.requestReset(dto.email, request.ip));
  }

  @Public()
  @Post('reset-password')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Set a new password with a reset link’s token',
    description:
      'Uses up the link and ends every session of the user (API keys stay). An unknown, ' +
      'expired or used token is a 400 `password reset link is invalid or has expired`, and ' +
      'counts towards the client’s throttle (429 with Retry-After). The link of a disabled ' +
      'account is a 403 `this account is disabled; ask your administrator` and stays unused. ' +
      'Passwords need 8 to 1024 characters (422 naming `password`).',
  })
  @ApiNoContentResponse({ description: 'The password is set' })
  @ApiResponse({
    status: 400,
    description: 'The link is invalid, expired or used, or the body is not JSON',
    type: ErrorResponseDto,
  })
  @ApiResponse({
    status: 403,
    description: `${DISABLED}, or the account is disabled`,
    type: ErrorResponseDto,
  })
  @ApiResponse(THROTTLED_RESPONSE)
  @ApiErrors(422)
  async resetPassword(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Body() dto: ResetPasswordDto,
  ): Promise<void> {
    await withRetryAfter(response, () => this.resets.reset(dto.token, dto.password, request.ip));
  }
}
