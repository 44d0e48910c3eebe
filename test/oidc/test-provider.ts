import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';
import Provider, { type Account, type Configuration } from 'oidc-provider';

/** A person who can sign in at the test provider; `claims` are what it says about them. */
export interface TestAccount {
  sub: string;
  claims: Record<string, unknown>;
}

export const TEST_CLIENT_ID = 'trove';
export const TEST_CLIENT_SECRET = 'trove-client-secret';
export const TEST_KEY_ID = 'test-key';

/** The provider's path that relays back-channel logout tokens to Trove (see `registerClient`). */
const BACKCHANNEL_RELAY_PATH = '/relay/backchannel-logout';

/** What the client registration may add besides the redirect URIs. */
export interface TestClientOptions {
  /**
   * Trove's back-channel logout URI: the provider posts logout tokens to it (through a relay of
   * its own that records each token and Trove's answer), with `sid` required.
   */
  backchannelLogoutUri?: string;
  /** Where RP-initiated logout may send the browser back to. */
  postLogoutRedirectUris?: string[];
}

/** A logout token the provider delivered, and Trove's answer to it. */
export interface DeliveredLogoutToken {
  token: string;
  status: number;
  body: string;
}

/**
 * A real OpenID provider (panva's oidc-provider) on 127.0.0.1 for the tests. Its login and
 * consent pages are tiny JSON endpoints that the test's browser drives over HTTP:
 * `GET /interaction/:uid` tells which prompt is due, `POST /interaction/:uid/login` with
 * `login=<sub>` signs an account in, `POST .../confirm` grants consent, `POST .../abort` denies.
 *
 * The client is registered once Trove listens (its callback URL holds Trove's port), so the
 * provider answers 503 until `registerClient()`: Trove's first discovery attempt may fail.
 */
export class TestProvider {
  readonly accounts = new Map<string, TestAccount>();
  /** Every back-channel logout token the provider delivered, in order. */
  readonly deliveredLogoutTokens: DeliveredLogoutToken[] = [];
  /** Failed back-channel deliveries, as the provider reported them. */
  readonly backchannelErrors: string[] = [];
  private signingKey: KeyObject | undefined;
  private backchannelTarget: string | undefined;
  private provider: Provider | undefined;
  private handler: ReturnType<Provider['callback']> | undefined;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  /** Listens on 127.0.0.1 (`port` 0 picks a free one). */
  static async start(port = 0): Promise<TestProvider> {
    const started: { instance?: TestProvider } = {};
    const server = createServer((req, res) => {
      if (!started.instance) res.writeHead(503).end();
      else void started.instance.handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = server.address() as AddressInfo;
    started.instance = new TestProvider(server, `http://127.0.0.1:${address.port}`);
    return started.instance;
  }

  get origin(): string {
    return this.issuer;
  }

  addAccount(sub: string, claims: Record<string, unknown>): TestAccount {
    const account = { sub, claims };
    this.accounts.set(sub, account);
    return account;
  }

  /** Creates the provider with Trove as its one confidential client. */
  registerClient(redirectUris: string[], options: TestClientOptions = {}): void {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.signingKey = privateKey;
    this.backchannelTarget = options.backchannelLogoutUri;
    const jwk = {
      ...privateKey.export({ format: 'jwk' }),
      kid: TEST_KEY_ID,
      alg: 'RS256',
      use: 'sig',
    };
    const logout = options.backchannelLogoutUri
      ? {
          backchannel_logout_uri: `${this.issuer}${BACKCHANNEL_RELAY_PATH}`,
          backchannel_logout_session_required: true,
        }
      : {};
    const configuration: Configuration = {
      clients: [
        {
          client_id: TEST_CLIENT_ID,
          client_secret: TEST_CLIENT_SECRET,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
          ...logout,
          ...(options.postLogoutRedirectUris
            ? { post_logout_redirect_uris: options.postLogoutRedirectUris }
            : {}),
        },
      ],
      jwks: { keys: [jwk] },
      cookies: { keys: ['test-provider-cookie-key'] },
      scopes: ['openid', 'email', 'profile', 'groups'],
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name'],
        groups: ['groups'],
      },
      // Trove must send PKCE; the provider refuses authorization requests without it.
      pkce: { required: () => true },
      ttl: {
        AccessToken: 600,
        AuthorizationCode: 60,
        Grant: 3600,
        IdToken: 600,
        Interaction: 600,
        Session: 3600,
      },
      features: {
        devInteractions: { enabled: false },
        backchannelLogout: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          // The confirmation page as JSON: where to post, with which xsrf value.
          logoutSource: (ctx, form) => {
            ctx.type = 'json';
            ctx.body = {
              action: /action="([^"]+)"/.exec(form)?.[1],
              xsrf: /name="xsrf" value="([^"]+)"/.exec(form)?.[1],
            };
          },
          postLogoutSuccessSource: (ctx) => {
            ctx.type = 'json';
            ctx.body = { signedOut: true };
          },
        },
      },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, sub): Account | undefined => {
        const account = this.accounts.get(sub);
        if (!account) return undefined;
        return {
          accountId: sub,
          claims: () => ({ sub, ...this.accounts.get(sub)?.claims }),
        };
      },
    };
    this.provider = new Provider(this.issuer, configuration);
    this.provider.on('backchannel.error', (_ctx, error: Error) =>
      this.backchannelErrors.push(error.message),
    );
    this.handler = this.provider.callback();
  }

  /**
   * A logout token signed as the provider signs them (its RS256 key, unless `key` is given),
   * with `claims` over the usual ones; a claim set to undefined is left out.
   */
  signLogoutToken(
    claims: Record<string, unknown>,
    options: { key?: KeyObject; typ?: string } = {},
  ): string {
    const key = options.key ?? this.signingKey;
    if (!key) throw new Error('registerClient() first');
    const now = Math.floor(Date.now() / 1000);
    const payload = Object.fromEntries(
      Object.entries({
        iss: this.issuer,
        aud: TEST_CLIENT_ID,
        iat: now,
        exp: now + 120,
        jti: `jti-${Math.random().toString(36).slice(2)}`,
        events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
        ...claims,
      }).filter(([, value]) => value !== undefined),
    );
    return jwt.sign(payload, key, {
      algorithm: 'RS256',
      keyid: TEST_KEY_ID,
      header: { alg: 'RS256', typ: options.typ ?? 'logout+jwt', kid: TEST_KEY_ID },
    });
  }

  /**
   * Ends the browser's session at the provider as its sign-out page would (RP-initiated logout
   * confirmed by the user); the provider delivers the back-channel logout tokens before it
   * answers. `start` is the end_session URL to begin from (the provider's own by default).
   */
  async logOut(browser: TestBrowser, start?: string): Promise<{ location: string | undefined }> {
    const page = await browser.get(start ?? `${this.issuer}/session/end`);
    if (page.status !== 200) throw new Error(`end_session answered ${page.status}: ${page.text}`);
    const { action, xsrf } = JSON.parse(page.text) as { action: string; xsrf: string };
    const confirmed = await browser.post(new URL(action, this.issuer), { xsrf, logout: 'yes' });
    if (confirmed.status !== 303 && confirmed.status !== 302) {
      throw new Error(`the logout confirmation answered ${confirmed.status}: ${confirmed.text}`);
    }
    return { location: confirmed.location };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (!this.provider || !this.handler) {
        res.writeHead(503).end();
        return;
      }
      const path = new URL(req.url ?? '/', this.issuer).pathname;
      if (path === BACKCHANNEL_RELAY_PATH && req.method === 'POST') {
        await this.relayLogoutToken(req, res);
        return;
      }
      const interaction = /^\/interaction\/([^/]+)(?:\/(login|confirm|abort))?$/.exec(path);
      if (interaction) {
        await this.interact(this.provider, req, res, interaction[2]);
        return;
      }
      await this.handler(req, res);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  }

  /** Records a logout token the provider posts and passes it on to Trove, answering as Trove did. */
  private async relayLogoutToken(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const token = new URLSearchParams(body).get('logout_token') ?? '';
    if (!this.backchannelTarget) throw new Error('no back-channel logout URI registered');
    const answer = await fetch(this.backchannelTarget, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const text = await answer.text();
    this.deliveredLogoutTokens.push({ token, status: answer.status, body: text });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  }

  private async interact(
    provider: Provider,
    req: IncomingMessage,
    res: ServerResponse,
    action: string | undefined,
  ): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'GET' && action === undefined) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ uid: details.uid, prompt: details.prompt.name, params: details.params }),
      );
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    if (action === 'abort') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'the user refused' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (action === 'login') {
      const login = new URLSearchParams(await readBody(req)).get('login') ?? '';
      if (!this.accounts.has(login)) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `no account ${login}` }));
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: login } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    // Consent: grant whatever the client asked for.
    const accountId = details.session?.accountId;
    const clientId = String(details.params.client_id);
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId, clientId });
    if (!grant) throw new Error('grant not found');
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { consent: details.grantId ? {} : { grantId } },
      { mergeWithLastSubmission: true },
    );
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** What `logOut` needs of the test's browser. */
interface TestBrowser {
  get(url: string | URL): Promise<{ status: number; text: string }>;
  post(
    url: string | URL,
    form?: Record<string, string>,
  ): Promise<{ status: number; text: string; location: string | undefined }>;
}
