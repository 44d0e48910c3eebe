import { ServiceUnavailableException } from '@nestjs/common';

export const OIDC_PROVIDER_UNAVAILABLE = 'OIDC provider not available';

/** Where a browser lands after any failed sign-in; the reason is only logged. */
export const OIDC_FAILURE_LOCATION = '/?oidc_error=oidc_auth_failed';

/** The provider could not be discovered (unreachable, timed out, or an unusable document). */
export class OidcProviderUnavailableException extends ServiceUnavailableException {
  constructor() {
    super(OIDC_PROVIDER_UNAVAILABLE);
  }
}

/**
 * A sign-in that the rules refuse (unverified e-mail, group not allowed, bad token...). It never
 * reaches the HTTP layer: the callback logs its message and redirects to the failure page.
 */
export class OidcSignInRefused extends Error {
  override readonly name = 'OidcSignInRefused';
}
