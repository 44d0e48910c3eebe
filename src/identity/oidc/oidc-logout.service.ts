import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import type { Request, Response } from 'express';
import jwt from 'jsonwebtoken';
import { SessionsService } from '../auth/sessions.service.js';
import { presentedToken } from '../auth/token-extraction.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { clearSessionCookies } from '../users/session-cookies.js';
import { OidcLogoutTokenRepository } from './oidc-logout-token.repository.js';
import { OidcProviderService } from './oidc-provider.service.js';

/** The `events` member that makes a JWT a back-channel logout token. */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** How old (by `iat`) a logout token may be: the provider sends it as the session ends. */
export const LOGOUT_TOKEN_MAX_AGE_SECONDS = 120;
/** Clock difference allowed with the provider, as for ID tokens. */
const CLOCK_TOLERANCE_SECONDS = 60;
/** `typ` headers a logout token may carry (none is allowed too). */
const LOGOUT_TOKEN_TYPES = new Set(['logout+jwt', 'application/logout+jwt', 'jwt']);
const MAX_JTI_LENGTH = 255;

/** A logout token that does not pass validation: answered 400, nothing ended. */
export class InvalidLogoutToken extends Error {
  override readonly name = 'InvalidLogoutToken';
}

/** What a valid logout token asks to end, and how long its `jti` must be remembered. */
interface LogoutRequest {
  issuer: string;
  subject?: string;
  sid?: string;
  jti: string;
  rememberUntil: Date;
}

/**
 * Logout driven by the provider: OpenID Connect Back-Channel Logout 1.0 (the provider posts a
 * signed logout token when a session ends there; Trove ends the sessions created in it, on every
 * instance at once) and RP-Initiated Logout 1.0 (signing out of Trove also ends the provider's
 * session, when TROVE_OIDC_LOGOUT_REDIRECT is set).
 */
@Injectable()
export class OidcLogoutService {
  private readonly logger = new Logger('OidcLogout');

  constructor(
    private readonly config: ConfigService<TroveConfig, true>,
    private readonly provider: OidcProviderService,
    private readonly tokens: OidcLogoutTokenRepository,
    private readonly sessions: SessionsService,
  ) {}

  /**
   * Forgets the logout tokens that could no longer pass validation anyway; how many (the hourly
   * purge).
   */
  deleteExpiredTokens(): Promise<number> {
    return this.tokens.deleteExpired();
  }

  private get settings(): TroveConfig['oidc'] {
    return this.config.get('oidc', { infer: true });
  }

  /** Disabled, the routes answer exactly as an unknown route does. */
  assertEnabled(request: Request): void {
    if (!this.settings.enabled) {
      throw new NotFoundException(`Cannot ${request.method} ${request.originalUrl}`);
    }
  }

  /**
   * Validates a back-channel logout token as the specification says (section 2.6), remembers
   * its `jti` so that no instance accepts it again, and ends the sessions it names: those created
   * in provider session `sid`, or without one every single sign-on session of `sub`. Throws
   * InvalidLogoutToken for a token that fails any check; nothing is ended then.
   */
  async backChannelLogout(logoutToken: unknown): Promise<void> {
    const request = await this.validate(logoutToken);
    const ended = await this.end(request);
    this.logger.log(
      `back-channel logout (${request.sid === undefined ? 'subject' : 'provider session'}) ` +
        `ended the sessions of ${ended.length} user(s)`,
    );
  }

  /** Remembers the token's `jti` and ends its sessions, both or neither. */
  @Transactional()
  private async end(request: LogoutRequest): Promise<string[]> {
    if (!(await this.tokens.remember(request.issuer, request.jti, request.rememberUntil))) {
      throw new InvalidLogoutToken('the logout token was received before (replayed jti)');
    }
    return this.sessions.revokeProviderSession(request.issuer, request);
  }

  private async validate(logoutToken: unknown): Promise<LogoutRequest> {
    if (typeof logoutToken !== 'string' || logoutToken.trim() === '') {
      throw new InvalidLogoutToken('logout_token is required');
    }
    const refuse = (message: string) => new InvalidLogoutToken(`the logout token ${message}`);
    const claims = await this.provider.verifyToken(logoutToken.trim(), {
      maxAgeSeconds: LOGOUT_TOKEN_MAX_AGE_SECONDS,
      refuse,
    });
    const typ: unknown = jwt.decode(logoutToken.trim(), { complete: true })?.header.typ;
    if (
      typ !== undefined &&
      (typeof typ !== 'string' || !LOGOUT_TOKEN_TYPES.has(typ.toLowerCase()))
    ) {
      throw refuse(`has type ${JSON.stringify(typ)}, not logout+jwt`);
    }
    if (
      typeof claims.iat !== 'number' ||
      claims.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS
    ) {
      throw refuse('is issued in the future');
    }
    const events: unknown = claims.events;
    const event: unknown =
      events !== null && typeof events === 'object'
        ? (events as Record<string, unknown>)[BACKCHANNEL_LOGOUT_EVENT]
        : undefined;
    if (event === null || typeof event !== 'object' || Array.isArray(event)) {
      throw refuse(`has no '${BACKCHANNEL_LOGOUT_EVENT}' event`);
    }
    if (claims.nonce !== undefined) throw refuse('carries a nonce');
    const subject = nonEmpty(claims.sub);
    const sid = nonEmpty(claims.sid);
    if (subject === undefined && sid === undefined) throw refuse('names neither sub nor sid');
    const jti = nonEmpty(claims.jti);
    if (jti === undefined || jti.length > MAX_JTI_LENGTH) throw refuse('has no usable jti');
    // Remembered as long as the token could pass the checks above.
    const until =
      Math.max(claims.exp ?? 0, claims.iat + LOGOUT_TOKEN_MAX_AGE_SECONDS) +
      CLOCK_TOLERANCE_SECONDS;
    return { issuer: claims.iss, subject, sid, jti, rememberUntil: new Date(until * 1000) };
  }

  /**
   * Signs the caller out (the session of the request's cookie or bearer token ends, cookies are
   * cleared) and answers where the browser goes next: the provider's end_session_endpoint when
   * the session was a single sign-on and TROVE_OIDC_LOGOUT_REDIRECT is set, else Trove's `/`.
   */
  async signOut(request: Request, response: Response): Promise<string> {
    const presented = presentedToken(request);
    const identity = presented && (await this.sessions.authenticate(presented.token, undefined));
    clearSessionCookies(request, response);
    if (identity?.credential.kind !== 'session') return '/';
    const { singleSignOn } = await this.sessions.origin(identity.credential.tokenId);
    await this.sessions.revoke(identity.credential.tokenId);
    const redirect = this.settings.logoutRedirect;
    if (!singleSignOn || redirect === '') return '/';
    const endpoint = (await this.provider.metadata()).endSessionEndpoint;
    if (endpoint === undefined) return redirect;
    const url = new URL(endpoint);
    url.searchParams.set('client_id', this.settings.clientId);
    url.searchParams.set('post_logout_redirect_uri', redirect);
    return url.toString();
  }
}

const nonEmpty = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
