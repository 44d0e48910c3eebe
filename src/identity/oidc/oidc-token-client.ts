import type { OidcProviderMetadata } from './oidc-provider.service.js';
import { ProviderHttpError, parseJsonObject, requestProvider } from './oidc-http.js';
import type { OidcFlow } from './oidc-state-store.js';

type TokenCallback = (
  error: unknown,
  accessToken?: string,
  refreshToken?: string,
  results?: Record<string, unknown>,
) => void;
type GetCallback = (error: unknown, body?: string) => void;

export interface OidcClientCredentials {
  clientId: string;
  clientSecret: string;
  requestTimeoutMs: number;
}

/**
 * Stands in for the `oauth` package's OAuth2 client inside passport-openidconnect (its
 * `_oauth2`), for three things that client lacks: the PKCE `code_verifier` at the token
 * endpoint, a timeout on every request, and HTTP Basic client authentication.
 */
export class OidcTokenClient {
  readonly _authorizeUrl: string;
  readonly _accessTokenUrl: string;
  readonly _clientId: string;

  constructor(
    private readonly metadata: OidcProviderMetadata,
    private readonly credentials: OidcClientCredentials,
    private readonly flow: OidcFlow,
    /** Called when passport's own callback throws, so the sign-in ends instead of hanging. */
    private readonly onCrash: (error: unknown) => void,
  ) {
    this._authorizeUrl = metadata.authorizationEndpoint;
    this._accessTokenUrl = metadata.tokenEndpoint;
    this._clientId = credentials.clientId;
  }

  /** The authorization-code exchange, with the PKCE verifier restored from the state cookie. */
  getOAuthAccessToken(code: string, params: Record<string, string>, callback: TokenCallback): void {
    this.exchange(code, params).then(
      (results) => this.guard(() => callback(null, accessTokenOf(results), undefined, results)),
      (error: unknown) => this.guard(() => callback(error)),
    );
  }

  /** A GET with the access token, for the UserInfo endpoint; the body must be a JSON object. */
  get(url: string, accessToken: string, callback: GetCallback): void {
    this.fetchUserInfo(url, accessToken).then(
      (body) => this.guard(() => callback(null, body)),
      (error: unknown) => this.guard(() => callback(error)),
    );
  }

  private guard(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.onCrash(error);
    }
  }

  private async exchange(
    code: string,
    params: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const { clientId, clientSecret, requestTimeoutMs } = this.credentials;
    const form = new URLSearchParams({ ...params, code, code_verifier: this.flow.codeVerifier });
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    };
    if (this.metadata.tokenAuthMethod === 'client_secret_basic') {
      const user = encodeURIComponent(clientId);
      const password = encodeURIComponent(clientSecret);
      headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    } else {
      form.set('client_id', clientId);
      form.set('client_secret', clientSecret);
    }
    const response = await requestProvider(
      this.metadata.tokenEndpoint,
      { method: 'POST', headers, body: form.toString(), redirect: 'error' },
      requestTimeoutMs,
    );
    if (response.status !== 200) {
      throw new ProviderHttpError(response.status, response.text, this.metadata.tokenEndpoint);
    }
    const results = parseJsonObject(response.text, this.metadata.tokenEndpoint);
    accessTokenOf(results);
    return results;
  }

  private async fetchUserInfo(url: string, accessToken: string): Promise<string> {
    const response = await requestProvider(
      url,
      {
        headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` },
        redirect: 'error',
      },
      this.credentials.requestTimeoutMs,
    );
    if (response.status !== 200) throw new ProviderHttpError(response.status, response.text, url);
    if (!/^application\/(.+\+)?json\b/i.test(response.contentType)) {
      throw new Error(`${url} answered ${response.contentType || 'no content type'}, not JSON`);
    }
    parseJsonObject(response.text, url);
    return response.text;
  }
}

function accessTokenOf(results: Record<string, unknown>): string {
  const token = results.access_token;
  if (typeof token !== 'string' || token === '') {
    throw new Error('the token response has no access_token');
  }
  return token;
}
