import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiConsumes,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthIdentity } from '../auth/auth-user.js';
import { ApiAuth } from '../auth/decorators/api-auth.decorator.js';
import { CurrentIdentity } from '../auth/decorators/current-user.decorator.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { UserScope } from '../auth/decorators/user-scope.decorator.js';
import { TooManyAttemptsException } from '../auth/login-throttle.service.js';
import { SessionsService } from '../auth/sessions.service.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { LoginDto, LoginResponseDto, RefreshResponseDto } from './dto/login.dto.js';
import { clearSessionCookies, setSessionCookies } from './session-cookies.js';
import { PasswordSignInService } from './password-sign-in.service.js';

@ApiTags('users')
@Controller('users')
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly passwordSignIn: PasswordSignInService,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in with e-mail and password',
    description:
      'Accepts JSON or a form. Sets the cookies the Homebox web UI uses. Failed attempts are ' +
      'throttled per account and per client address (429 with Retry-After). The right ' +
      'password of a disabled account is a 403 `this account is disabled; ask your administrator`.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiQuery({ name: 'provider', required: false, enum: ['local'] })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiErrors(400, 401, 403, 422, 429)
  async login(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Body() dto: LoginDto,
    @Query('provider') provider?: string,
  ): Promise<LoginResponseDto> {
    if (provider !== undefined && provider !== 'local') {
      throw new BadRequestException('invalid auth provider');
    }
    let session;
    try {
      session = await this.passwordSignIn.signIn({
        email: dto.username,
        password: dto.password,
        remember: dto.stayLoggedIn ?? false,
        address: request.ip,
      });
    } catch (error) {
      if (error instanceof TooManyAttemptsException) {
        response.setHeader('Retry-After', String(error.retryAfterSeconds));
      }
      throw error;
    }
    setSessionCookies(request, response, session, true);
    return {
      token: `Bearer ${session.token}`,
      attachmentToken: session.attachmentToken,
      expiresAt: session.expiresAt.toISOString(),
    };
  }

  @Get('refresh')
  @UserScope()
  @ApiAuth()
  @ApiOperation({
    summary: 'Exchange the session token for a new 7-day one; the old one ends',
    description:
      'Answers a new session token and attachment token; the old pair ends on every instance, ' +
      'and change-feed sockets opened with either close.',
  })
  @ApiOkResponse({ type: RefreshResponseDto })
  @ApiErrors(400)
  async refresh(
    @CurrentIdentity() caller: AuthIdentity,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<RefreshResponseDto> {
    if (caller.credential.kind !== 'session') {
      throw new BadRequestException('API keys do not require refresh');
    }
    const session = await this.sessions.renew(caller.id, caller.credential.tokenId);
    setSessionCookies(request, response, session, false);
    return {
      raw: session.token,
      attachmentToken: session.attachmentToken,
      expiresAt: session.expiresAt.toISOString(),
    };
  }

  @Post('logout')
  @UserScope()
  @ApiAuth()
  @HttpCode(204)
  @ApiOperation({
    summary: 'End the presenting session',
    description:
      'Ends the session and the attachment token issued with it on every instance, and closes ' +
      'the change-feed sockets opened with either.',
  })
  @ApiNoContentResponse()
  @ApiErrors(400)
  async logout(
    @CurrentIdentity() caller: AuthIdentity,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    if (caller.credential.kind !== 'session') {
      throw new BadRequestException(
        'API keys cannot be logged out; delete the key with DELETE /api/v1/users/self/api-keys/{id}',
      );
    }
    await this.sessions.revoke(caller.credential.tokenId);
    clearSessionCookies(request, response);
  }

  @Post('logout/all')
  @UserScope()
  @ApiAuth()
  @HttpCode(204)
  @ApiOperation({
    summary: 'End every session of the caller (API keys stay)',
    description:
      'Ends every session and attachment token of the caller on every instance, and closes the ' +
      'change-feed sockets opened with them.',
  })
  @ApiNoContentResponse()
  async logoutAll(
    @CurrentIdentity() caller: AuthIdentity,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.sessions.revokeAllForUser(caller.id);
    clearSessionCookies(request, response);
  }
}
