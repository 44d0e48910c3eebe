import {
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import passport from 'passport';
import { ApiKeysService, isApiKey } from '../api-keys.service.js';
import type { AuthIdentity } from '../auth-user.js';
import { IS_PUBLIC_KEY } from '../decorators/public.decorator.js';
import { requestedTenant } from '../identity.repository.js';
import { JwtStrategy } from '../jwt.strategy.js';
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
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
    private readonly sessions: SessionsService,
    private readonly jwt: JwtStrategy,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
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
    request.user = await this.verifySessionToken(
      request,
      context.switchToHttp().getResponse<Response>(),
    );
    return true;
  }

  /**
   * passport-jwt with this app's own strategy, a fresh object per request as passport makes them,
   * rather than the one passport's process-wide registry holds under `jwt` (the last app's, when
   * several run in one process).
   */
  private verifySessionToken(request: Request, response: Response): Promise<AuthIdentity> {
    return new Promise((resolve, reject) => {
      const strategy = Object.create(this.jwt) as JwtStrategy;
      const done = (error: unknown, user: AuthIdentity | false | undefined): void => {
        if (error instanceof Error) reject(error);
        else if (error) reject(new Error('session token verification failed'));
        else if (!user) reject(new UnauthorizedException(INVALID_TOKEN_MESSAGE));
        else resolve(user);
      };
      const handler = passport.authenticate(strategy, { session: false }, done) as (
        request: Request,
        response: Response,
        next: (error?: unknown) => void,
      ) => void;
      handler(request, response, (error) => done(error, false));
    });
  }
}
