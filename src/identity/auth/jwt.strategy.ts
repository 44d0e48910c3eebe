import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-jwt';
import { isApiKey } from './api-keys.service.js';
import type { AuthIdentity } from './auth-user.js';
import { requestedTenant } from './identity.repository.js';
import { SessionsService, TOKEN_CHECKS, type TokenClaims } from './sessions.service.js';
import { presentedToken } from './token-extraction.js';

const tokenOf = (request: Request): string | null => {
  const presented = presentedToken(request);
  return presented && !isApiKey(presented.token) ? presented.token : null;
};

/**
 * passport-jwt checks the signature, issuer, audience and expiry; the stored row then decides
 * whether the token is still valid (not revoked) and who it stands for.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(private readonly sessions: SessionsService) {
    super({
      jwtFromRequest: tokenOf,
      secretOrKeyProvider: (
        _request: Request,
        _rawToken: string,
        done: (error: unknown, key?: Buffer) => void,
      ) => {
        sessions.signingKey().then(
          // jsonwebtoken takes a KeyObject as it is; passport-jwt's types only know bytes.
          (key) => done(null, key as unknown as Buffer),
          (error: unknown) => done(error),
        );
      },
      ...TOKEN_CHECKS,
      passReqToCallback: true,
    });
  }

  async validate(request: Request, claims: TokenClaims): Promise<AuthIdentity | false> {
    const identity = await this.sessions.identify(
      claims,
      tokenOf(request) ?? '',
      requestedTenant(request),
    );
    return identity ?? false;
  }
}
