import type { Request } from 'express';
import type { OAuth2 } from 'oauth';
import {
  Strategy,
  type AuthenticateOptions,
  type StrategyOptions,
  type VerifyFunction,
} from 'passport-openidconnect';
import type { OidcRefusalShown } from './oidc-errors.js';
import { pkceChallenge, type OidcFlow } from './oidc-state-store.js';
import type { OidcTokenClient } from './oidc-token-client.js';

/** The user a successful sign-in resolves to. */
export interface OidcSignedIn {
  id: string;
  /** The provider's session id (`sid` of the ID token), when it sent one. */
  providerSessionId?: string;
}

/** How one run of the strategy ended. */
export type StrategyOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'success'; user: OidcSignedIn }
  | { kind: 'fail'; reason: string; shown?: OidcRefusalShown }
  | { kind: 'error'; error: unknown };

/** What the verify callback said the person should be told (see OidcSignInRefused). */
function shownOf(challenge: unknown): OidcRefusalShown | undefined {
  const shown =
    challenge && typeof challenge === 'object'
      ? (challenge as { shown?: unknown }).shown
      : undefined;
  return shown === 'account_disabled' ? shown : undefined;
}

function describeChallenge(challenge: unknown): string {
  if (typeof challenge === 'string') return challenge;
  if (challenge && typeof challenge === 'object') {
    const message = (challenge as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return 'the provider refused the sign-in';
}

/**
 * passport-openidconnect's strategy for one sign-in request: it adds PKCE (S256) to the
 * authorization request and talks to the token and UserInfo endpoints through Trove's client.
 * `run()` does what passport's `authenticate()` middleware does with a strategy, but hands the
 * outcome back instead of writing the response.
 */
export class TroveOidcStrategy extends Strategy {
  private settle: (outcome: StrategyOutcome) => void = () => undefined;

  constructor(
    options: StrategyOptions,
    verify: VerifyFunction,
    private readonly flow: OidcFlow,
    client: (onCrash: (error: unknown) => void) => OidcTokenClient,
  ) {
    super(options, verify);
    this._oauth2 = client((error) => this.settle({ kind: 'error', error })) as unknown as OAuth2;
  }

  override authorizationParams(): object {
    return { code_challenge: pkceChallenge(this.flow.codeVerifier), code_challenge_method: 'S256' };
  }

  run(request: Request, options: AuthenticateOptions = {}): Promise<StrategyOutcome> {
    return new Promise<StrategyOutcome>((resolve) => {
      let settled = false;
      this.settle = (outcome) => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      Object.assign(this, {
        success: (user: OidcSignedIn) => this.settle({ kind: 'success', user }),
        fail: (challenge?: unknown) =>
          this.settle({
            kind: 'fail',
            reason: describeChallenge(challenge),
            shown: shownOf(challenge),
          }),
        redirect: (url: string) => this.settle({ kind: 'redirect', url }),
        pass: () => this.settle({ kind: 'fail', reason: 'the strategy passed the request on' }),
        error: (error: unknown) => this.settle({ kind: 'error', error }),
      });
      try {
        this.authenticate(request, options);
      } catch (error) {
        this.settle({ kind: 'error', error });
      }
    });
  }
}
