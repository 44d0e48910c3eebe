import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Account, type Configuration } from 'oidc-provider';

/** A person who can sign in at the test provider; `claims` are what it says about them. */
export interface TestAccount {
  sub: string;
  claims: Record<string, unknown>;
}

export const TEST_CLIENT_ID = 'trove';
export const TEST_CLIENT_SECRET = 'trove-client-secret';

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
  registerClient(redirectUris: string[]): void {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = {
      ...privateKey.export({ format: 'jwk' }),
      kid: 'test-key',
      alg: 'RS256',
      use: 'sig',
    };
    const configuration: Configuration = {
      clients: [
        {
          client_id: TEST_CLIENT_ID,
          client_secret: TEST_CLIENT_SECRET,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
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
      features: { devInteractions: { enabled: false } },
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
    this.handler = this.provider.callback();
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
