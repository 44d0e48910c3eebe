import { Controller, Get, Req, Res } from '@nestjs/common';
import {
  ApiFoundResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../auth/decorators/public.decorator.js';
import { ErrorResponseDto } from '../common/errors/error-response.dto.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { OidcLoginService } from './oidc-login.service.js';

const LOCATION_HEADER = {
  Location: { description: 'Where the browser goes next', schema: { type: 'string' } },
};
const NOT_ENABLED = { status: 404, description: 'OIDC is not enabled', type: ErrorResponseDto };
const UNAVAILABLE = {
  description: 'The provider cannot be reached or discovered: `OIDC provider not available`',
  type: ErrorResponseDto,
};

/** Single sign-on through the OpenID provider (only when TROVE_OIDC_ENABLED is true). */
@ApiTags('users')
@Controller('users/login/oidc')
export class OidcController {
  constructor(private readonly login: OidcLoginService) {}

  @Public()
  @Get()
  @ApiOperation({
    summary: 'Start single sign-on at the OpenID provider',
    description:
      'Redirects to the provider’s authorization endpoint with state, nonce and PKCE (S256); ' +
      'they travel in a short-lived signed cookie to the callback.',
  })
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
      '`/home`. Any failure redirects to `/?oidc_error=oidc_auth_failed`. Failures count ' +
      'against the sign-in throttle of the client address.',
  })
  @ApiQuery({ name: 'code', required: false, type: String })
  @ApiQuery({ name: 'state', required: false, type: String })
  @ApiQuery({ name: 'error', required: false, type: String })
  @ApiFoundResponse({
    description: 'To `/home` when signed in, else to `/?oidc_error=oidc_auth_failed`',
    headers: LOCATION_HEADER,
  })
  @ApiResponse(NOT_ENABLED)
  @ApiErrors(429)
  @ApiServiceUnavailableResponse(UNAVAILABLE)
  async finishOidcLogin(@Req() request: Request, @Res() response: Response): Promise<void> {
    response.redirect(302, await this.login.finish(request, response));
  }
}
