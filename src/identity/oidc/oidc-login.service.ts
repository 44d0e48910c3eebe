import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import type { VerifyCallback } from 'passport-openidconnect';
import { LoginThrottleService, TooManyAttemptsException } from '../auth/login-throttle.service.js';
import { ServerSecretsService } from '../auth/server-secrets.service.js';
import { SessionsService } from '../auth/sessions.service.js';
import { publicBaseUrl } from '../../platform/http/public-base-url.js';
import { onFirstUse } from '../../platform/runtime/on-first-use.js';
import { localTarget, SIGNED_IN_PAGE } from '../../platform/http/local-target.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { setSessionCookies } from '../users/session-cookies.js';
import { OidcAccountsService } from './oidc-accounts.service.js';
import { readIdentity } from './oidc-claims.js';
import { oidcFailureLocation, OidcSignInRefused } from './oidc-errors.js';
import { describeError, parseJsonObject } from './oidc-http.js';
import { OidcProviderService } from './oidc-provider.service.js';
import {
  clearStateCookie,
  nextOf,
  setNextCookie,
  ConsumedStates,
  CookieStateStore,
  randomToken,
  type OidcFlow,
} from './oidc-state-store.js';
import { OidcTokenClient } from './oidc-token-client.js';
import type { OidcSignedIn, StrategyOutcome, TroveOidcStrategy } from './oidc.strategy.js';

/** The strategy and passport-openidconnect under it, imported at the first sign-in. */
const oidcStrategyModule = onFirstUse(() => import('./oidc.strategy.js'));

export const OIDC_STATE_KEY = 'oidc-state-key';
export const OIDC_CALLBACK_PATH = '/api/v1/users/login/oidc/callback';
export const OIDC_SUCCESS_LOCATION = SIGNED_IN_PAGE;

/**
 * Single sign-on through the configured OpenID provider: the start route sends the browser to
 * the provider; the callback checks what comes back and signs the user in as local login does.
 */
@Injectable()
export class OidcLoginService {
  private readonly logger = new Logger('OidcLogin');
  private readonly consumed = new ConsumedStates();

  constructor(
    private readonly config: ConfigService<TroveConfig, true>,
    private readonly provider: OidcProviderService,
    private readonly accounts: OidcAccountsService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    private readonly secrets: ServerSecretsService,
  ) {}

  private get settings(): TroveConfig['oidc'] {
    return this.config.get('oidc', { infer: true });
  }

  /**
   * The provider's authorization URL for a new sign-in (state cookie set on `response`), which
   * comes back to `?next=` (a path of Trove's own address) instead of `/home` when it is given.
   */
  async begin(request: Request, response: Response): Promise<string> {
    this.assertEnabled(request);
    await this.assertNotThrottled(request, response);
    const next = localTarget(request.query.next);
    if (next !== OIDC_SUCCESS_LOCATION) {
      setNextCookie(request, response, next, this.settings.stateExpiryMs);
    }
    const strategy = await this.strategyFor(request, response);
    const outcome = await strategy.run(request);
    if (outcome.kind === 'redirect') return outcome.url;
    throw outcome.kind === 'error'
      ? outcome.error
      : new Error(`the OIDC strategy did not redirect (${outcome.kind})`);
  }

  /**
   * Finishes a sign-in at the provider's redirect: where to send the browser next, `/home` with
   * the session cookies set, or the failure page.
   */
  async finish(request: Request, response: Response): Promise<string> {
    this.assertEnabled(request);
    await this.assertNotThrottled(request, response);
    const strategy = await this.strategyFor(request, response);
    const next = localTarget(nextOf(request), OIDC_SUCCESS_LOCATION);
    clearStateCookie(request, response);
    const { code, state, error } = request.query;
    const outcome: StrategyOutcome =
      error === undefined && (typeof code !== 'string' || typeof state !== 'string')
        ? { kind: 'fail', reason: 'the callback carries no code and state' }
        : await strategy.run(request);
    if (outcome.kind === 'success') {
      try {
        const session = await this.sessions.issue(outcome.user.id, {
          long: true,
          singleSignOn: true,
          providerSessionId: outcome.user.providerSessionId,
        });
        setSessionCookies(request, response, session, true);
        await this.throttle.recordSuccess({ address: request.ip });
        return next;
      } catch (failure) {
        return this.failed(request, { kind: 'error', error: failure });
      }
    }
    return this.failed(request, outcome);
  }

  private async failed(request: Request, outcome: StrategyOutcome): Promise<string> {
    const reason =
      outcome.kind === 'fail'
        ? outcome.reason
        : outcome.kind === 'error'
          ? describeStrategyError(outcome.error)
          : 'the callback started a new sign-in instead of finishing one';
    this.logger.warn(`OIDC sign-in failed from ${request.ip ?? 'unknown address'}: ${reason}`);
    await this.throttle.recordFailure({ address: request.ip });
    return oidcFailureLocation(outcome.kind === 'fail' ? outcome.shown : undefined);
  }

  private assertEnabled(request: Request): void {
    // Disabled, the routes answer exactly as an unknown route does.
    if (!this.settings.enabled) {
      throw new NotFoundException(`Cannot ${request.method} ${request.originalUrl}`);
    }
  }

  private async assertNotThrottled(request: Request, response: Response): Promise<void> {
    try {
      await this.throttle.assertAllowed({ address: request.ip });
    } catch (error) {
      if (error instanceof TooManyAttemptsException) {
        response.setHeader('Retry-After', String(error.retryAfterSeconds));
      }
      throw error;
    }
  }

  private async strategyFor(request: Request, response: Response): Promise<TroveOidcStrategy> {
    const strategies = await oidcStrategyModule();
    const metadata = await this.provider.metadata();
    const settings = this.settings;
    const key = await this.secrets.get(OIDC_STATE_KEY, '');
    const flow: OidcFlow = { request, response, codeVerifier: randomToken(32) };
    const credentials = {
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      requestTimeoutMs: settings.requestTimeoutMs,
    };
    return new strategies.TroveOidcStrategy(
      {
        issuer: metadata.issuer,
        authorizationURL: metadata.authorizationEndpoint,
        tokenURL: metadata.tokenEndpoint,
        userInfoURL: metadata.userinfoEndpoint ?? '',
        skipUserProfile: metadata.userinfoEndpoint === undefined,
        clientID: settings.clientId,
        clientSecret: settings.clientSecret,
        callbackURL: `${this.publicBase(request)}${OIDC_CALLBACK_PATH}`,
        // The strategy always asks for `openid` itself.
        scope: settings.scope.split(/\s+/).filter((scope) => scope !== '' && scope !== 'openid'),
        nonce: 'true',
        store: new CookieStateStore(flow, key, settings.stateExpiryMs, this.consumed),
      },
      this.verifyFunction(flow),
      flow,
      (onCrash) => new OidcTokenClient(metadata, credentials, flow, onCrash),
    );
  }

  /** Trove's public base URL: the configured hostname, else the scheme and Host of the request. */
  private publicBase(request: Request): string {
    return publicBaseUrl(this.config.get('options', { infer: true }).hostname, request);
  }

  /** passport-openidconnect's verify callback; it picks the signature by arity (nine here). */
  private verifyFunction(flow: OidcFlow) {
    return (
      _issuer: string,
      userInfoProfile: object | undefined,
      _idProfile: object,
      _context: object,
      idToken: string | object,
      _accessToken: string | object,
      _refreshToken: string,
      _params: unknown,
      done: VerifyCallback,
    ): void => {
      this.signIn(flow, idToken, userInfoProfile).then(
        (user) => done(null, user),
        (error: unknown) => {
          if (error instanceof OidcSignInRefused) {
            done(null, false, { message: error.message, shown: error.shown });
          } else done(error instanceof Error ? error : new Error(String(error)));
        },
      );
    };
  }

  private async signIn(
    flow: OidcFlow,
    idToken: string | object,
    userInfoProfile: object | undefined,
  ): Promise<OidcSignedIn> {
    if (typeof idToken !== 'string' || !flow.nonce) {
      throw new OidcSignInRefused('no ID token or no stored nonce');
    }
    const idClaims = await this.provider.verifyIdToken(idToken, flow.nonce);
    const raw = (userInfoProfile as { _raw?: unknown } | undefined)?._raw;
    const userInfo = typeof raw === 'string' ? parseJsonObject(raw, 'UserInfo') : undefined;
    if (userInfo && userInfo.sub !== idClaims.sub) {
      throw new OidcSignInRefused('UserInfo describes another subject than the ID token');
    }
    // UserInfo wins; the ID token fills the gaps.
    const claims = { ...idClaims, ...userInfo } as Record<string, unknown>;
    const identity = readIdentity(claims, idClaims.iss, idClaims.sub, this.settings);
    const signedIn = await this.accounts.signIn(identity);
    // Kept with the session, so that the provider's back-channel logout of this session ends it.
    const sid: unknown = idClaims.sid;
    return typeof sid === 'string' && sid !== ''
      ? { ...signedIn, providerSessionId: sid }
      : signedIn;
  }
}

/** passport-openidconnect's errors carry an OAuth error code and sometimes a wrapped cause. */
function describeStrategyError(error: unknown): string {
  const details = error as { code?: unknown; oauthError?: unknown } | null;
  const code = typeof details?.code === 'string' ? ` [${details.code}]` : '';
  const cause = details?.oauthError ? `: ${describeError(details.oauthError)}` : '';
  return `${describeError(error)}${code}${cause}`;
}
