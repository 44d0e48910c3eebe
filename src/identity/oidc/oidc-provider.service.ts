import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import jwt, { type Algorithm, type JwtPayload } from 'jsonwebtoken';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { OidcProviderUnavailableException, OidcSignInRefused } from './oidc-errors.js';
import { describeError, getJsonObject } from './oidc-http.js';

/** What Trove uses of the provider's discovery document. */
export interface OidcProviderMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string | undefined;
  /** Where RP-initiated logout sends the browser, when the provider offers it. */
  endSessionEndpoint: string | undefined;
  jwksUri: string;
  /** Client authentication at the token endpoint: HTTP Basic unless only form fields are offered. */
  tokenAuthMethod: 'client_secret_basic' | 'client_secret_post';
}

/** The verified claims of an ID token. */
export interface IdTokenClaims extends JwtPayload {
  iss: string;
  sub: string;
}

/** What a token of the provider must also pass, besides signature, issuer, audience and expiry. */
export interface ProviderTokenChecks {
  /** The `nonce` claim must be this. */
  nonce?: string;
  /** `iat` must be present and at most this many seconds old. */
  maxAgeSeconds?: number;
  /** Makes the error thrown for a token that does not verify. */
  refuse: (message: string) => Error;
}

const RETRY_FIRST_DELAY_MS = 1_000;
const RETRY_MAX_DELAY_MS = 5 * 60_000;
/** Unknown key ids refetch the key set at most this often (key rotation at the provider). */
const JWKS_REFRESH_MIN_INTERVAL_MS = 30_000;
const CLOCK_TOLERANCE_SECONDS = 60;
const ASYMMETRIC_ALGORITHMS: ReadonlySet<string> = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
]);
const SYMMETRIC_ALGORITHMS: ReadonlySet<string> = new Set(['HS256', 'HS384', 'HS512']);

/** The issuer URL with no trailing slash, so `https://idp/` and `https://idp` compare equal. */
const withoutTrailingSlash = (url: string): string => url.replace(/\/+$/, '');

/**
 * The OpenID provider as Trove knows it: its discovery document and signing keys. Discovery
 * never blocks start-up: it runs in the background with growing pauses until it succeeds, and a
 * sign-in request that finds no document tries again at once (503 while that fails).
 */
@Injectable()
export class OidcProviderService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('OidcProvider');
  private readonly shutdown = new AbortController();
  private discovered: OidcProviderMetadata | undefined;
  private discovering: Promise<OidcProviderMetadata> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private keys: { list: JsonWebKey[]; fetchedAt: number } | undefined;
  private fetchingKeys: Promise<JsonWebKey[]> | undefined;

  constructor(private readonly config: ConfigService<TroveConfig, true>) {}

  private get settings(): TroveConfig['oidc'] {
    return this.config.get('oidc', { infer: true });
  }

  onApplicationBootstrap(): void {
    if (this.settings.enabled) this.discoverInBackground(0);
  }

  onModuleDestroy(): void {
    clearTimeout(this.retryTimer);
    this.shutdown.abort();
  }

  /** The discovery document, discovering it now if needed; 503 while the provider fails. */
  async metadata(): Promise<OidcProviderMetadata> {
    if (this.discovered) return this.discovered;
    try {
      return await this.discover();
    } catch {
      throw new OidcProviderUnavailableException();
    }
  }

  /**
   * Verifies an ID token's signature, issuer, audience, lifetime and nonce (see
   * `verifyToken`), and returns its claims.
   */
  async verifyIdToken(idToken: string, expectedNonce: string): Promise<IdTokenClaims> {
    const refuse = (message: string) => new OidcSignInRefused(`the ID token ${message}`);
    const claims = await this.verifyToken(idToken, { nonce: expectedNonce, refuse });
    if (typeof claims.sub !== 'string' || claims.sub === '') throw refuse('has no subject');
    return claims as IdTokenClaims;
  }

  /**
   * Verifies a JWT the provider issued to Trove (an ID token, a back-channel logout token): its
   * signature with the provider's published keys (or the client secret for HMAC algorithms;
   * never `none`), issuer, audience (this client), expiry and `checks`, with a minute of clock
   * tolerance. Returns its header and claims; throws `checks.refuse(<what is wrong>)`.
   */
  async verifyToken(
    token: string,
    checks: ProviderTokenChecks,
  ): Promise<JwtPayload & { iss: string }> {
    const { refuse } = checks;
    const metadata = await this.metadata();
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload === 'string') throw refuse('is not a JWT');
    const { alg, kid } = decoded.header;
    let candidates: (KeyObject | Buffer)[];
    if (SYMMETRIC_ALGORITHMS.has(alg)) {
      candidates = [Buffer.from(this.settings.clientSecret, 'utf8')];
    } else if (ASYMMETRIC_ALGORITHMS.has(alg)) {
      candidates = await this.verificationKeys(metadata, alg, kid);
    } else {
      throw refuse(`is signed with unsupported algorithm '${alg}'`);
    }
    if (candidates.length === 0) throw refuse(`is signed by no key of the provider (kid ${kid})`);
    let lastError: unknown;
    for (const key of candidates) {
      try {
        return jwt.verify(token, key, {
          algorithms: [alg as Algorithm],
          issuer: metadata.issuer,
          audience: this.settings.clientId,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          ...(checks.nonce === undefined ? {} : { nonce: checks.nonce }),
          ...(checks.maxAgeSeconds === undefined ? {} : { maxAge: checks.maxAgeSeconds }),
        }) as JwtPayload & { iss: string };
      } catch (error) {
        lastError = error;
      }
    }
    throw refuse(`does not verify: ${describeError(lastError)}`);
  }

  private discoverInBackground(attempt: number): void {
    if (this.discovered || this.shutdown.signal.aborted) return;
    this.discover().catch(() => {
      if (this.discovered || this.shutdown.signal.aborted) return;
      const delay = Math.min(RETRY_FIRST_DELAY_MS * 2 ** attempt, RETRY_MAX_DELAY_MS);
      this.retryTimer = setTimeout(() => this.discoverInBackground(attempt + 1), delay);
      this.retryTimer.unref();
    });
  }

  /** One discovery attempt, shared by everyone who asks while it runs. */
  private discover(): Promise<OidcProviderMetadata> {
    this.discovering ??= this.fetchMetadata()
      .then((metadata) => {
        this.discovered = metadata;
        clearTimeout(this.retryTimer);
        this.logger.log(`discovered OIDC provider ${metadata.issuer}`);
        return metadata;
      })
      .catch((error: unknown) => {
        this.logger.warn(`OIDC discovery failed: ${describeError(error)}`);
        throw error;
      })
      .finally(() => {
        this.discovering = undefined;
      });
    return this.discovering;
  }

  private async fetchMetadata(): Promise<OidcProviderMetadata> {
    const configured = withoutTrailingSlash(this.settings.issuerUrl);
    const url = `${configured}/.well-known/openid-configuration`;
    const document = await getJsonObject(url, this.settings.requestTimeoutMs, this.shutdown.signal);
    const issuer = document.issuer;
    if (typeof issuer !== 'string' || withoutTrailingSlash(issuer) !== configured) {
      throw new Error(
        `the discovery document names issuer '${String(issuer)}', not the configured '${this.settings.issuerUrl}'`,
      );
    }
    const methods = document.token_endpoint_auth_methods_supported;
    const postOnly =
      Array.isArray(methods) &&
      !methods.includes('client_secret_basic') &&
      methods.includes('client_secret_post');
    return {
      issuer,
      authorizationEndpoint: endpoint(document, 'authorization_endpoint'),
      tokenEndpoint: endpoint(document, 'token_endpoint'),
      userinfoEndpoint:
        document.userinfo_endpoint === undefined
          ? undefined
          : endpoint(document, 'userinfo_endpoint'),
      endSessionEndpoint:
        document.end_session_endpoint === undefined
          ? undefined
          : endpoint(document, 'end_session_endpoint'),
      jwksUri: endpoint(document, 'jwks_uri'),
      tokenAuthMethod: postOnly ? 'client_secret_post' : 'client_secret_basic',
    };
  }

  /** The provider's keys that may have signed a token with this algorithm and key id. */
  private async verificationKeys(
    metadata: OidcProviderMetadata,
    alg: string,
    kid: string | undefined,
  ): Promise<KeyObject[]> {
    const select = (list: JsonWebKey[]): JsonWebKey[] =>
      list.filter(
        (key) =>
          (key.use === undefined || key.use === 'sig') &&
          key.kty === (alg.startsWith('ES') ? 'EC' : 'RSA') &&
          (kid === undefined || key.kid === kid),
      );
    let matching = select(await this.keySet(metadata, false));
    if (matching.length === 0) matching = select(await this.keySet(metadata, true));
    return matching.flatMap((key) => {
      try {
        return [createPublicKey({ key, format: 'jwk' })];
      } catch {
        return [];
      }
    });
  }

  private async keySet(metadata: OidcProviderMetadata, refresh: boolean): Promise<JsonWebKey[]> {
    const fresh = this.keys && Date.now() - this.keys.fetchedAt < JWKS_REFRESH_MIN_INTERVAL_MS;
    if (this.keys && (!refresh || fresh)) return this.keys.list;
    this.fetchingKeys ??= getJsonObject(
      metadata.jwksUri,
      this.settings.requestTimeoutMs,
      this.shutdown.signal,
    )
      .then((document) => {
        const list = Array.isArray(document.keys)
          ? (document.keys as unknown[]).filter(
              (key): key is JsonWebKey => key !== null && typeof key === 'object',
            )
          : [];
        this.keys = { list, fetchedAt: Date.now() };
        return list;
      })
      .finally(() => {
        this.fetchingKeys = undefined;
      });
    return this.fetchingKeys;
  }
}

function endpoint(document: Record<string, unknown>, name: string): string {
  const value = document[name];
  if (typeof value !== 'string') throw new Error(`the discovery document has no ${name}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`the discovery document's ${name} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`the discovery document's ${name} is not an http(s) URL`);
  }
  return value;
}
