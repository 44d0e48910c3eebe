import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIALS_CHANNEL } from '../../src/identity/auth/verified-credentials.js';
import { DatabaseNotifications } from '../../src/platform/database/database-notifications.js';
import { openFeed, type Feed } from '../events/feed.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { Browser } from './browser.js';
import { callbackUrl, oidcEnv, sessionToken, signInWithOidc } from './sign-in.js';
import { TestProvider } from './test-provider.js';

const BACKCHANNEL_PATH = '/api/v1/users/login/oidc/backchannel-logout';
const LOGOUT_PATH = '/api/v1/users/login/oidc/logout';
const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

const waitUntil = async (condition: () => boolean | Promise<boolean>): Promise<void> => {
  for (let attempt = 0; !(await condition()); attempt += 1) {
    if (attempt > 500) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

interface SignedIn {
  browser: Browser;
  token: string;
  attachmentToken: string;
  /** The provider's session id stored with the session. */
  sid: string;
}

/**
 * Back-channel logout against a real provider (oidc-provider with its back-channel logout on),
 * with two Trove instances on one database: the provider delivers its logout tokens to A (through
 * its relay, which records them), and B must follow through the database.
 */
describe('OpenID Connect back-channel logout', () => {
  let idp: TestProvider;
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const postLogout = (trove: TestApp): string => `${trove.baseUrl}/signed-out`;

  beforeAll(async () => {
    idp = await TestProvider.start();
    database = await createTestDatabase();
    b = await createTestApp(oidcEnv(idp), { database });
    // A signs out at the provider too, which then sends the browser to a page of B.
    a = await createTestApp(
      oidcEnv(idp, { TROVE_OIDC_LOGOUT_REDIRECT: `${b.baseUrl}/signed-out` }),
      { database },
    );
    idp.registerClient([callbackUrl(a), callbackUrl(b)], {
      backchannelLogoutUri: `${a.baseUrl}${BACKCHANNEL_PATH}`,
      postLogoutRedirectUris: [postLogout(b)],
    });
    for (const trove of [a, b]) {
      await waitUntil(() => trove.app.get(DatabaseNotifications).isSubscribed(CREDENTIALS_CHANNEL));
    }
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
    await idp?.close();
  });

  const newAccount = (): string => {
    const sub = `sub-${randomBytes(6).toString('hex')}`;
    idp.addAccount(sub, {
      email: `${sub}@example.com`,
      email_verified: true,
      name: 'Lea Leaver',
    });
    return sub;
  };

  /** Signs in through the provider at `trove` (in `browser`, new unless given). */
  const signIn = async (sub: string, browser = new Browser(), trove = a): Promise<SignedIn> => {
    const { callback } = await signInWithOidc(browser, trove, idp, sub);
    expect(callback.location).toBe(`${trove.baseUrl}/home`);
    const token = sessionToken(browser, trove);
    const attachmentToken = decodeURIComponent(
      browser.cookie(trove.baseUrl, 'hb.auth.attachment_token') ?? '',
    );
    // The session's stored row is named by its token's jti.
    const { jti } = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as {
      jti: string;
    };
    const [{ sid }] = await trove.query<{ sid: string }>(
      `SELECT t.provider_session_id AS sid FROM auth_tokens t
       JOIN users u ON u.id = t.user_id WHERE t.id = $1 AND u.oidc_subject = $2`,
      [jti, sub],
    );
    return { browser, token, attachmentToken, sid };
  };

  const sessionStatus = async (trove: TestApp, token: string): Promise<number> =>
    (await trove.http.get('/api/v1/users/self').set('Authorization', `Bearer ${token}`)).status;

  const attachmentStatus = async (trove: TestApp, token: string): Promise<number> =>
    (await trove.http.get('/api/v1/qrcode').query({ data: 'drill', access_token: token })).status;

  /** Reads with the session on both instances, so that each has verified it (and cached it). */
  const warm = async (session: SignedIn): Promise<void> => {
    for (const trove of [a, b]) {
      for (let round = 0; round < 2; round += 1) {
        expect(await sessionStatus(trove, session.token)).toBe(200);
        expect(await attachmentStatus(trove, session.attachmentToken)).toBe(200);
      }
    }
  };

  const post = (trove: TestApp, form: Record<string, string>) =>
    trove.http.post(BACKCHANNEL_PATH).type('form').send(form);

  it('ends the session, its attachment token and its sockets on both instances when the user logs out at the provider', async () => {
    const sub = newAccount();
    const session = await signIn(sub);
    const rows = await a.query<{ role: string; sid: string | null }>(
      `SELECT r.role, t.provider_session_id AS sid FROM auth_tokens t
       JOIN auth_roles r ON r.token_id = t.id JOIN users u ON u.id = t.user_id
       WHERE u.oidc_subject = $1 ORDER BY r.role`,
      [sub],
    );
    expect(rows).toEqual([
      { role: 'attachments', sid: session.sid },
      { role: 'user', sid: session.sid },
    ]);
    expect(session.sid).toEqual(expect.any(String));
    await warm(session);
    const feeds: Feed[] = [
      await openFeed(a.baseUrl, { headers: { Authorization: `Bearer ${session.token}` } }),
      await openFeed(b.baseUrl, { headers: { Authorization: `Bearer ${session.token}` } }),
      await openFeed(b.baseUrl, { protocols: ['hb-auth', session.attachmentToken] }),
    ];

    await idp.logOut(session.browser);

    expect(idp.backchannelErrors).toEqual([]);
    expect(idp.deliveredLogoutTokens.map(({ status, body }) => ({ status, body }))).toEqual([
      { status: 200, body: '' },
    ]);
    for (const feed of feeds) {
      expect(await feed.closed).toEqual({
        code: 1008,
        reason: 'valid authorization token is required',
      });
    }
    for (const trove of [a, b]) {
      expect(await sessionStatus(trove, session.token)).toBe(401);
      expect(await attachmentStatus(trove, session.attachmentToken)).toBe(401);
    }
  });

  it('refuses forged, expired, wrong-audience, nonce-carrying, malformed and replayed tokens with 400, ending nothing', async () => {
    const sub = newAccount();
    const session = await signIn(sub);
    await warm(session);
    const { privateKey: otherKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const now = Math.floor(Date.now() / 1000);
    const refused: [string, string, string][] = [
      [
        'forged (another key)',
        idp.signLogoutToken({ sub, sid: session.sid }, { key: otherKey }),
        'the logout token does not verify: invalid signature',
      ],
      [
        'expired',
        idp.signLogoutToken({ sub, sid: session.sid, iat: now - 600, exp: now - 480 }),
        'the logout token does not verify: jwt expired',
      ],
      [
        'issued too long ago',
        idp.signLogoutToken({ sub, sid: session.sid, iat: now - 600, exp: now + 600 }),
        'the logout token does not verify: maxAge exceeded',
      ],
      [
        'for another client',
        idp.signLogoutToken({ sub, sid: session.sid, aud: 'another-client' }),
        'the logout token does not verify: jwt audience invalid. expected: trove',
      ],
      [
        'of another issuer',
        idp.signLogoutToken({ sub, sid: session.sid, iss: 'https://elsewhere.example' }),
        `the logout token does not verify: jwt issuer invalid. expected: ${idp.issuer}`,
      ],
      [
        'carrying a nonce',
        idp.signLogoutToken({ sub, sid: session.sid, nonce: 'abc' }),
        'the logout token carries a nonce',
      ],
      [
        'without the logout event',
        idp.signLogoutToken({ sub, sid: session.sid, events: { other: {} } }),
        `the logout token has no '${LOGOUT_EVENT}' event`,
      ],
      [
        'naming neither sub nor sid',
        idp.signLogoutToken({ sub: undefined, sid: undefined }),
        'the logout token names neither sub nor sid',
      ],
      [
        'without a jti',
        idp.signLogoutToken({ sub, sid: session.sid, jti: undefined }),
        'the logout token has no usable jti',
      ],
      [
        'typed as something else',
        idp.signLogoutToken({ sub, sid: session.sid }, { typ: 'at+jwt' }),
        'the logout token has type "at+jwt", not logout+jwt',
      ],
      ['not a JWT', 'not-a-token', 'the logout token is not a JWT'],
      ['empty', '', 'logout_token is required'],
    ];
    for (const [what, token, description] of refused) {
      const response = await post(a, { logout_token: token });
      expect({ what, status: response.status, body: response.body as unknown }).toEqual({
        what,
        status: 400,
        body: { error: 'invalid_request', error_description: description },
      });
      expect(response.headers['cache-control']).toBe('no-store');
    }
    const missing = await a.http.post(BACKCHANNEL_PATH).type('form').send({}).expect(400);
    expect(missing.body).toEqual({
      error: 'invalid_request',
      error_description: 'logout_token is required',
    });
    for (const trove of [a, b]) expect(await sessionStatus(trove, session.token)).toBe(200);

    // A valid token ends the session; the very same token again ends nothing, on either instance.
    const valid = idp.signLogoutToken({ sub, sid: session.sid });
    const accepted = await post(b, { logout_token: valid }).expect(200);
    expect(accepted.text).toBe('');
    expect(await sessionStatus(b, session.token)).toBe(401);
    // Signing in again in the same browser stays in the same provider session (same sid).
    const again = await signIn(sub, session.browser);
    expect(again.sid).toBe(session.sid);
    await warm(again);
    for (const trove of [a, b]) {
      const replayed = await post(trove, { logout_token: valid }).expect(400);
      expect(replayed.body).toEqual({
        error: 'invalid_request',
        error_description: 'the logout token was received before (replayed jti)',
      });
    }
    for (const trove of [a, b]) {
      expect(await sessionStatus(trove, again.token)).toBe(200);
      expect(await attachmentStatus(trove, again.attachmentToken)).toBe(200);
    }
    const stored = await a.query<{ count: string }>(
      `SELECT count(*) FROM oidc_logout_tokens WHERE issuer = $1`,
      [idp.issuer],
    );
    expect(Number(stored[0].count)).toBeGreaterThanOrEqual(1);
  });

  it('refuses a token the provider really sent when it is replayed to the other instance', async () => {
    const sub = newAccount();
    const session = await signIn(sub);
    const before = idp.deliveredLogoutTokens.length;
    await idp.logOut(session.browser);
    const [delivered] = idp.deliveredLogoutTokens.slice(before);
    expect(delivered.status).toBe(200);
    const again = await signIn(sub);
    const replayed = await post(b, { logout_token: delivered.token }).expect(400);
    expect(replayed.body).toEqual({
      error: 'invalid_request',
      error_description: 'the logout token was received before (replayed jti)',
    });
    expect(await sessionStatus(b, again.token)).toBe(200);
  });

  it('ends every single sign-on session of the subject for a token without sid, and only theirs', async () => {
    const sub = newAccount();
    const first = await signIn(sub);
    const second = await signIn(sub, new Browser(), b);
    const bystander = await signIn(newAccount());
    expect(second.sid).not.toBe(first.sid);
    await post(a, { logout_token: idp.signLogoutToken({ sub, sid: undefined }) }).expect(200);
    for (const trove of [a, b]) {
      expect(await sessionStatus(trove, first.token)).toBe(401);
      expect(await sessionStatus(trove, second.token)).toBe(401);
      expect(await sessionStatus(trove, bystander.token)).toBe(200);
    }
  });

  it('ends nothing for a sid of another subject', async () => {
    const sub = newAccount();
    const session = await signIn(sub);
    const other = newAccount();
    await post(a, { logout_token: idp.signLogoutToken({ sub: other, sid: session.sid }) }).expect(
      200,
    );
    expect(await sessionStatus(a, session.token)).toBe(200);
  });

  it('signs out at the provider too (RP-initiated logout) when TROVE_OIDC_LOGOUT_REDIRECT is set', async () => {
    const sub = newAccount();
    const session = await signIn(sub);
    const cookie = session.browser.cookieHeader(`${a.baseUrl}${LOGOUT_PATH}`);
    const signedOut = await a.http.post(LOGOUT_PATH).set('Cookie', cookie).expect(303);
    const location = new URL(signedOut.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe(`${idp.issuer}/session/end`);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      client_id: 'trove',
      post_logout_redirect_uri: postLogout(b),
    });
    expect(signedOut.headers['set-cookie']).toEqual(
      expect.arrayContaining([expect.stringMatching(/^hb\.auth\.token=;/)]),
    );
    expect(await sessionStatus(a, session.token)).toBe(401);

    // The provider's own logout then ends what is left of that provider session in Trove.
    const before = idp.deliveredLogoutTokens.length;
    const back = await idp.logOut(session.browser, location.toString());
    expect(back.location).toBe(postLogout(b));
    expect(idp.deliveredLogoutTokens.slice(before).map(({ status }) => status)).toEqual([200]);
    expect(await attachmentStatus(b, session.attachmentToken)).toBe(401);
  });

  it('stays local without TROVE_OIDC_LOGOUT_REDIRECT, and without a session', async () => {
    const sub = newAccount();
    const session = await signIn(sub, new Browser(), b);
    const cookie = session.browser.cookieHeader(`${b.baseUrl}${LOGOUT_PATH}`);
    const signedOut = await b.http.post(LOGOUT_PATH).set('Cookie', cookie).expect(303);
    expect(signedOut.headers.location).toBe('/');
    expect(await sessionStatus(b, session.token)).toBe(401);
    const anonymous = await a.http.post(LOGOUT_PATH).expect(303);
    expect(anonymous.headers.location).toBe('/');
  });
});
