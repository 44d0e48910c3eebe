import { Body, Controller, Get, Header, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../auth/decorators/public.decorator.js';
import { ErrorResponseDto } from '../../platform/errors/error-response.dto.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { OidcLoginService } from './oidc-login.service.js';
import { InvalidLogoutToken, OidcLogoutService } from './oidc-logout.service.js';

const LOCATION_HEADER = {
  Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
};
const NOT_ENABLED = { status: 404, description: 'OIDC is not enabled', type: ErrorResponseDto };
const UNAVAILABLE = {
  description: 'The provider cannot be reached or discovered: `OIDC provider not available`',
  type: ErrorResponseDto,
};

/** The answer to a logout token that fails validation (OpenID Connect Back-Channel Logout 2.8). */
interface LogoutTokenError {
  error: 'invalid_request';
  error_description: string;
}

const LOGOUT_TOKEN_ERROR = {
  status: 400,
  description: 'The logout token fails validation; no session ended',
  schema: {
    type: 'object',
    required: ['error', 'error_description'],
    properties: {
      error: { type: 'string', enum: ['invalid_request'] },
      error_description: { type: 'string', example: 'the logout token carries a nonce' },
    },
  },
};

/**
 * Single sign-on through the OpenID provider, and logout driven by it (only when
 * TROVE_OIDC_ENABLED is true).
 */
@ApiTags('users')
@Controller('users/login/oidc')
export class OidcController {
  constructor(
    private readonly login: OidcLoginService,
    private readonly logout: OidcLogoutService,
  ) {}

  @Public()
  @Get()
  @ApiOperation({
    summary: 'Start single sign-on at the OpenID provider',
    description:
      'Redirects to the provider’s authorization endpoint with state, nonce and PKCE (S256); ' +
      'they travel in a short-lived signed cookie to the callback. With `next`, a path of ' +
      'Trove’s own address (a console page), the callback sends the browser there instead of ' +
      'to `/home`; anything else is ignored.',
  })
  @ApiQuery({ name: 'next', required: false, type: String, example: '/console' })
  @ApiFoundResponse({
    description: 'To the provider’s authorization endpoint',
    headers: LOCATION_HEADER,
  })
  @ApiResponse(NOT_ENABLED)
  @ApiErrors(429)
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async startOidcLogin(@Req() request: Request, @Res() response: Response): Promise<void> {
    response.redirect(302, await this.login.begin(request, response));
  }

  @Public()
  @Get('callback')
  @ApiOperation({
    summary: 'Finish single sign-on (the provider redirects here)',
    description:
      'Checks state, redeems the code with the PKCE verifier, verifies the ID token and reads ' +
      'UserInfo, then signs the user in as local login does (cookies set) and redirects to ' +
      '`/home`, or to the `next` the start was given. Any failure redirects to `/?oidc_error=oidc_auth_failed`, followed by ' +
      '`&oidc_reason=account_disabled` when the account is disabled. Failures count against the ' +
      'sign-in throttle of the client address.',
  })
  @ApiQuery({ name: 'code', required: false, type: String })
  @ApiQuery({ name: 'state', required: false, type: String })
  @ApiQuery({ name: 'error', required: false, type: String })
  @ApiFoundResponse({
    description:
      'To `/home` (or the start’s `next`) when signed in, else to ' +
      '`/?oidc_error=oidc_auth_failed` ' +
      '(`&oidc_reason=account_disabled` for a disabled account)',
    headers: LOCATION_HEADER,
  })
  @ApiResponse(NOT_ENABLED)
  @ApiErrors(429)
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async finishOidcLogin(@Req() request: Request, @Res() response: Response): Promise<void> {
    response.redirect(302, await this.login.finish(request, response));
  }

  @Public()
  @Post('backchannel-logout')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    summary: 'OpenID Connect Back-Channel Logout: the provider ends sessions',
    description:
      'Register `<TROVE_OPTIONS_HOSTNAME>/api/v1/users/login/oidc/backchannel-logout` as the ' +
      'client’s back-channel logout URI (with `backchannel_logout_session_required`). The ' +
      'provider posts a `logout_token` (form-encoded) when a session ends there. It must be ' +
      'signed with one of the provider’s published keys (or the client secret for HS*), name ' +
      'the provider as `iss` and this client in `aud`, be issued (`iat`) within the last 120 ' +
      'seconds and not be expired, carry the `http://schemas.openid.net/event/backchannel-logout` ' +
      'event, `sub` and/or `sid`, no `nonce`, and a `jti` never accepted before by any instance. ' +
      'Then the sessions created in that provider session (`sid`), or every single sign-on ' +
      'session of the subject, end with their attachment tokens, on every instance at once, ' +
      'and their change-feed sockets close.',
  })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['logout_token'],
      properties: { logout_token: { type: 'string', description: 'The signed logout token' } },
    },
  })
  @ApiOkResponse({ description: 'The sessions the token names have ended (if any were left)' })
  @ApiResponse(LOGOUT_TOKEN_ERROR)
  @ApiResponse(NOT_ENABLED)
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async backChannelLogout(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
    @Body() body: Record<string, unknown> | undefined,
  ): Promise<LogoutTokenError | undefined> {
    this.logout.assertEnabled(request);
    try {
      await this.logout.backChannelLogout(body?.logout_token);
      return undefined;
    } catch (error) {
      if (!(error instanceof InvalidLogoutToken)) throw error;
      response.status(400);
      return { error: 'invalid_request', error_description: error.message };
    }
  }

  @Public()
  @Post('logout')
  @ApiOperation({
    summary: 'Sign out, and out of the provider too (RP-initiated logout)',
    description:
      'For a browser form: ends the session of the request’s cookie (or bearer token) and ' +
      'clears the session cookies. When that session came from single sign-on and ' +
      '`TROVE_OIDC_LOGOUT_REDIRECT` is set, the browser is sent to the provider’s ' +
      '`end_session_endpoint` (with `client_id` and that `post_logout_redirect_uri`, which ' +
      'must be registered at the provider), which ends the provider session and returns it ' +
      'there; otherwise to `/`.',
  })
  @ApiResponse({
    status: 303,
    description: 'To the provider’s end_session_endpoint, or to `/`',
    headers: LOCATION_HEADER,
  })
  @ApiResponse(NOT_ENABLED)
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async signOutAtProvider(@Req() request: Request, @Res() response: Response): Promise<void> {
    this.logout.assertEnabled(request);
    response.redirect(303, await this.logout.signOut(request, response));
  }
}
