import { Injectable, UnauthorizedException, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { ApiKeysService, isApiKey } from '../api-keys.service.js';
import type { AuthIdentity } from '../auth-user.js';
import { IS_PUBLIC_KEY } from '../decorators/public.decorator.js';
import { requestedTenant } from '../identity.repository.js';
import { SessionsService } from '../sessions.service.js';
import { presentedToken } from '../token-extraction.js';

export const NO_TOKEN_MESSAGE = 'authorization header or query is required';
export const INVALID_TOKEN_MESSAGE = 'valid authorization token is required';

/**
 * Deny by default: every route needs a valid session token or API key unless it is @Public().
 * Session tokens go through passport-jwt, unless this very token was verified whole before and
 * not revoked since (`SessionsService.knownIdentity`); API keys (only in the Authorization
 * header) are checked against their stored hash.
 */
@Injectable()
export class AuthenticationGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly sessions: SessionsService,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<Request & { user?: AuthIdentity }>();
    const presented = presentedToken(request);
    if (!presented) throw new UnauthorizedException(NO_TOKEN_MESSAGE);
    if (isApiKey(presented.token)) {
      const identity =
        presented.source === 'header'
          ? await this.apiKeys.identify(presented.token, requestedTenant(request))
          : undefined;
      if (!identity) throw new UnauthorizedException(INVALID_TOKEN_MESSAGE);
      request.user = identity;
      return true;
    }
    const known = this.sessions.knownIdentity(presented.token, requestedTenant(request));
    if (known) {
      request.user = known;
      return true;
    }
    return (await super.canActivate(context)) as boolean;
  }

  override handleRequest<TUser = AuthIdentity>(error: unknown, user: TUser | false): TUser {
    if (error instanceof Error) throw error;
    if (!user) throw new UnauthorizedException(INVALID_TOKEN_MESSAGE);
    return user;
  }
}
