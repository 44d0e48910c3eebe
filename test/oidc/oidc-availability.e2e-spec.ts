import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signUp, uniqueEmail } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { Browser, findSetCookie } from './browser.js';
import {
  CALLBACK_PATH,
  callbackUrl,
  emailIsFree,
  FAILURE_LOCATION,
  oidcEnv,
  START_PATH,
  signInWithOidc,
} from './sign-in.js';
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, TestProvider } from './test-provider.js';

const UNAVAILABLE = { error: 'OIDC provider not available' };

async function listen(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function close(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** A port nothing listens on (it was free a moment ago). */
async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

/**
 * Serves the real provider's discovery document under another URL: with `claimSelf`, the
 * document names the mirror as issuer (so Trove accepts it, and then gets ID tokens from the
 * real provider's issuer); without, it names the real provider (so Trove must refuse it).
 */
async function startDiscoveryMirror(
  idp: TestProvider,
  claimSelf: boolean,
): Promise<{ server: Server; url: string }> {
  let url = '';
  const server = createServer((req, res) => {
    void (async () => {
      const upstream = await fetch(`${idp.issuer}${req.url ?? '/'}`);
      let body = await upstream.text();
      if (upstream.ok && claimSelf) {
        body = JSON.stringify({ ...(JSON.parse(body) as object), issuer: url });
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(body);
    })().catch(() => res.writeHead(502).end());
  });
  url = `http://127.0.0.1:${await listen(server)}`;
  return { server, url };
}

const oidcSettings = (issuer: string, extra: Record<string, string> = {}) => ({
  TROVE_OIDC_ENABLED: 'true',
  TROVE_OIDC_ISSUER_URL: issuer,
  TROVE_OIDC_CLIENT_ID: TEST_CLIENT_ID,
  TROVE_OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET,
  ...extra,
});

describe('OIDC routes when OIDC is disabled', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp();
  });
  afterAll(() => trove.close());

  it('answer 404 like an unknown route', async () => {
    const unknown = await trove.http.get('/api/v1/users/login/unknown').expect(404);
    expect(unknown.body).toEqual({ error: 'Cannot GET /api/v1/users/login/unknown' });

    const start = await trove.http.get(START_PATH).expect(404);
    expect(start.body).toEqual({ error: `Cannot GET ${START_PATH}` });
    const callback = await trove.http.get(`${CALLBACK_PATH}?code=abc&state=def`).expect(404);
    expect(callback.body).toEqual({ error: `Cannot GET ${CALLBACK_PATH}?code=abc&state=def` });
    expect(start.headers.location).toBeUndefined();
    expect(start.headers['set-cookie']).toBeUndefined();
    for (const path of ['backchannel-logout', 'logout']) {
      const logout = await trove.http
        .post(`/api/v1/users/login/oidc/${path}`)
        .type('form')
        .send({ logout_token: 'x' })
        .expect(404);
      expect(logout.body).toEqual({ error: `Cannot POST /api/v1/users/login/oidc/${path}` });
    }
  });
});

describe('OIDC when the provider is unreachable at start-up', () => {
  let trove: TestApp;
  let idp: TestProvider | undefined;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    trove = await createTestApp(oidcSettings(`http://127.0.0.1:${port}`));
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });

  it('starts, serves local login, answers 503 on the OIDC routes, and recovers once the provider is up', async () => {
    await trove.http.get('/api/v1/health/ready').expect(200);
    const local = await signUp(trove);
    await signIn(trove, local.email, local.password);
    const status = await trove.http.get('/api/v1/status').expect(200);
    expect(status.body.oidc).toMatchObject({ enabled: true, allowLocal: true });

    const start = await trove.http.get(START_PATH).expect(503);
    expect(start.body).toEqual(UNAVAILABLE);
    const callback = await trove.http.get(`${CALLBACK_PATH}?code=abc&state=def`).expect(503);
    expect(callback.body).toEqual(UNAVAILABLE);

    // The provider comes up on its address: the next request discovers it.
    idp = await TestProvider.start(port);
    idp.registerClient([callbackUrl(trove)]);
    const retried = await trove.http.get(START_PATH).expect(302);
    expect(retried.headers.location).toMatch(new RegExp(`^${idp.issuer}/auth\\?`));

    // ... and the whole sign-in works.
    const sub = `late-${randomBytes(4).toString('hex')}`;
    idp.addAccount(sub, { email: uniqueEmail('late'), email_verified: true, name: 'Late' });
    const { callback: answer } = await signInWithOidc(new Browser(), trove, idp, sub);
    expect(answer.location).toBe(`${trove.baseUrl}/home`);
  });
});

describe('OIDC when the provider does not answer', () => {
  let trove: TestApp;
  let silent: Server;

  beforeAll(async () => {
    silent = createServer(() => undefined);
    const port = await listen(silent);
    trove = await createTestApp(
      oidcSettings(`http://127.0.0.1:${port}`, { TROVE_OIDC_REQUEST_TIMEOUT: '1' }),
    );
  });
  afterAll(async () => {
    await trove?.close();
    await close(silent);
  });

  it('gives up discovery after TROVE_OIDC_REQUEST_TIMEOUT and answers 503', async () => {
    const started = performance.now();
    const response = await trove.http.get(START_PATH).expect(503);
    const elapsed = performance.now() - started;

    expect(response.body).toEqual(UNAVAILABLE);
    expect(elapsed).toBeLessThan(10_000);
  });
});

describe('OIDC with the wrong issuer', () => {
  let idp: TestProvider;
  let lying: { server: Server; url: string };
  let honest: { server: Server; url: string };
  let mirrored: TestApp;
  let mismatched: TestApp;

  beforeAll(async () => {
    idp = await TestProvider.start();
    lying = await startDiscoveryMirror(idp, true);
    honest = await startDiscoveryMirror(idp, false);
    mirrored = await createTestApp(oidcSettings(lying.url));
    mismatched = await createTestApp(oidcSettings(honest.url));
    idp.registerClient([callbackUrl(mirrored), callbackUrl(mismatched)]);
  });
  afterAll(async () => {
    await mirrored?.close();
    await mismatched?.close();
    await close(lying?.server);
    await close(honest?.server);
    await idp?.close();
  });

  it('refuses a discovery document that names another issuer (503, never redirects)', async () => {
    const response = await mismatched.http.get(START_PATH).expect(503);
    expect(response.body).toEqual(UNAVAILABLE);
    expect(response.headers.location).toBeUndefined();
  });

  it('fails the sign-in when the ID token comes from another issuer than the configured one', async () => {
    const sub = `elsewhere-${randomBytes(4).toString('hex')}`;
    const email = uniqueEmail('elsewhere');
    idp.addAccount(sub, { email, email_verified: true, name: 'Elsewhere' });
    const browser = new Browser();

    const { callback } = await signInWithOidc(browser, mirrored, idp, sub);

    expect(callback.status).toBe(302);
    expect(callback.location).toBe(`${mirrored.baseUrl}${FAILURE_LOCATION}`);
    expect(findSetCookie(callback, 'hb.auth.token')).toBeUndefined();
    expect(await emailIsFree(mirrored, email)).toBe(true);
  });
});

describe('OIDC behind a configured hostname, with a strict sign-in throttle', () => {
  let idp: TestProvider;
  let trove: TestApp;

  beforeAll(async () => {
    idp = await TestProvider.start();
    trove = await createTestApp(
      oidcEnv(idp, {
        TROVE_OPTIONS_HOSTNAME: 'inventory.example.test/',
        TROVE_AUTH_RATE_LIMIT_MAX_ATTEMPTS: '1',
      }),
    );
    idp.registerClient(['http://inventory.example.test/api/v1/users/login/oidc/callback']);
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });

  it('registers the callback under the configured hostname', async () => {
    const response = await trove.http.get(START_PATH).expect(302);
    const location = new URL(String(response.headers.location));
    expect(location.searchParams.get('redirect_uri')).toBe(
      'http://inventory.example.test/api/v1/users/login/oidc/callback',
    );
  });

  it('counts failed callbacks against the client address and then answers 429 with Retry-After', async () => {
    // An address gets four times the per-account allowance of one failure.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const failed = await trove.http.get(`${CALLBACK_PATH}?code=forged&state=forged`).expect(302);
      expect(failed.headers.location).toBe(FAILURE_LOCATION);
    }

    const locked = await trove.http.get(`${CALLBACK_PATH}?code=forged&state=forged`).expect(429);
    expect(locked.body).toEqual({ error: 'too many authentication attempts' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const start = await trove.http.get(START_PATH).expect(429);
    expect(Number(start.headers['retry-after'])).toBeGreaterThan(0);
  });
});
