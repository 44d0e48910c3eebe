import { ServiceUnavailableException } from '@nestjs/common';

export const OIDC_PROVIDER_UNAVAILABLE = 'OIDC provider not available';

/** Where a browser lands after any failed sign-in; the reason is logged. */
export const OIDC_FAILURE_LOCATION = '/?oidc_error=oidc_auth_failed';

/**
 * Refusals the person signing in is told about: `oidc_reason` beside Homebox's `oidc_error`
 * (which its web UI reads, and which stays as it is), shown by Trove's own sign-in page.
 */
export type OidcRefusalShown = 'account_disabled';

/** The failure page, naming the refusal when the person should know it. */
export const oidcFailureLocation = (shown?: OidcRefusalShown): string =>
  shown === undefined ? OIDC_FAILURE_LOCATION : `${OIDC_FAILURE_LOCATION}&oidc_reason=${shown}`;

/** The provider could not be discovered (unreachable, timed out, or an unusable document). */
export class OidcProviderUnavailableException extends ServiceUnavailableException {
  constructor() {
    super(OIDC_PROVIDER_UNAVAILABLE);
  }
}

/**
 * A sign-in that the rules refuse (unverified e-mail, group not allowed, bad token, a disabled
 * account...). It never reaches the HTTP layer: the callback logs its message and redirects to
 * the failure page, which names the refusal when it is `shown`.
 */
export class OidcSignInRefused extends Error {
  override readonly name = 'OidcSignInRefused';

  constructor(
    message: string,
    readonly shown?: OidcRefusalShown,
  ) {
    super(message);
  }
}
