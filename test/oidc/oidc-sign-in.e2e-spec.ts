import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signUp, uniqueEmail } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { Browser, findSetCookie } from './browser.js';
import {
  authenticateAtProvider,
  CALLBACK_PATH,
  callbackUrl,
  emailIsFree,
  FAILURE_LOCATION,
  oidcEnv,
  selfWithCookies,
  sessionToken,
  signInWithOidc,
  START_PATH,
  startSignIn,
  STATE_COOKIE,
} from './sign-in.js';
import { TEST_CLIENT_ID, TestProvider } from './test-provider.js';

const uniqueSub = (): string => `sub-${randomBytes(6).toString('hex')}`;

describe('OIDC sign-in through a real provider', () => {
  let idp: TestProvider;
  let trove: TestApp;

  beforeAll(async () => {
    idp = await TestProvider.start();
    trove = await createTestApp(oidcEnv(idp, { TROVE_OIDC_BUTTON_TEXT: 'Sign in with Acme' }));
    idp.registerClient([callbackUrl(trove)]);
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });

  it('reports OIDC as enabled, with the button text, in GET /api/v1/status', async () => {
    const response = await trove.http.get('/api/v1/status').expect(200);
    expect(response.body.oidc).toEqual({
      allowLocal: true,
      autoRedirect: false,
      buttonText: 'Sign in with Acme',
      enabled: true,
    });
  });

  it('redirects to the authorization endpoint with state, nonce and PKCE, and sets the state cookie', async () => {
    const browser = new Browser();
    const { response, authorizeUrl } = await startSignIn(browser, trove);

    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${idp.issuer}/auth`);
    const query = Object.fromEntries(authorizeUrl.searchParams);
    expect(query).toEqual({
      response_type: 'code',
      client_id: TEST_CLIENT_ID,
      redirect_uri: callbackUrl(trove),
      scope: 'openid profile email groups',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9+/]{20}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    const cookie = findSetCookie(response, STATE_COOKIE);
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(cookie?.attributes).toMatchObject({
      path: START_PATH,
      httponly: true,
      samesite: 'Lax',
      'max-age': '600',
    });
    // The state in the URL is the one sealed in the cookie; the verifier is not in the URL.
    const sealed = JSON.parse(
      Buffer.from(cookie?.value.split('.')[0] ?? '', 'base64url').toString('utf8'),
    ) as { state: string; nonce: string; verifier: string };
    expect(sealed.state).toBe(query.state);
    expect(sealed.nonce).toBe(query.nonce);
    expect(authorizeUrl.toString()).not.toContain(sealed.verifier);
  });

  it('creates a new user with a group "Home", sets the session cookies and redirects to /home', async () => {
    const sub = uniqueSub();
    const email = uniqueEmail('sso');
    idp.addAccount(sub, { email, email_verified: true, name: 'Ada Lovelace' });
    const browser = new Browser();

    const { callback, elapsedMs, callbackMs } = await signInWithOidc(browser, trove, idp, sub);

    expect(callback.status).toBe(302);
    expect(callback.location).toBe(`${trove.baseUrl}/home`);
    const token = findSetCookie(callback, 'hb.auth.token');
    expect(token?.attributes).toMatchObject({ path: '/', httponly: true, samesite: 'Lax' });
    const expires = Date.parse(String(token?.attributes.expires));
    // OIDC sessions are the long (28-day) kind.
    expect(expires - Date.now()).toBeGreaterThan(27 * 24 * 3600 * 1000);
    expect(findSetCookie(callback, 'hb.auth.remember')?.value).toBe('true');
    expect(findSetCookie(callback, 'hb.auth.session')?.value).toBe('true');
    expect(findSetCookie(callback, 'hb.auth.attachment_token')?.value).toEqual(expect.any(String));
    expect(findSetCookie(callback, STATE_COOKIE)).toMatchObject({
      value: '',
      attributes: { path: START_PATH },
    });
    expect(browser.cookie(trove.baseUrl, STATE_COOKIE)).toBeUndefined();

    const self = await selfWithCookies(browser, trove);
    expect(self).toEqual({
      id: expect.any(String),
      name: 'Ada Lovelace',
      email,
      isSuperuser: false,
      defaultGroupId: expect.any(String),
      groupIds: [self.defaultGroupId],
      oidcIssuer: idp.issuer,
      oidcSubject: sub,
    });
    // The cookie's value is a token like any other.
    const bearer = `Bearer ${sessionToken(browser, trove)}`;
    const asToken = await trove.http
      .get('/api/v1/users/self')
      .set('Authorization', bearer)
      .expect(200);
    expect(asToken.body.item.id).toBe(self.id);
    const group = await trove.http.get('/api/v1/groups').set('Authorization', bearer).expect(200);
    expect(group.body).toMatchObject({ id: self.defaultGroupId, name: 'Home' });
    const members = await trove.http
      .get('/api/v1/groups/members')
      .set('Authorization', bearer)
      .expect(200);
    expect(members.body).toEqual([
      { id: self.id, name: 'Ada Lovelace', email, role: 'owner', disabled: false },
    ]);
    // No password: local login with any password fails.
    await trove.http
      .post('/api/v1/users/login')
      .send({ username: email, password: 'anything at all' })
      .expect(401);

    console.info(
      `OIDC sign-in round trip (new user): ${elapsedMs.toFixed(0)} ms, ` +
        `of which Trove's callback ${callbackMs.toFixed(0)} ms`,
    );
  });

  it('comes back to where the browser was going (a path of Trove’s own), else to /home', async () => {
    for (const [next, landing] of [
      ['/console/stock?window=7', '/console/stock?window=7'],
      ['https://elsewhere.example/console', '/home'],
      ['//elsewhere.example/console', '/home'],
    ]) {
      const sub = uniqueSub();
      idp.addAccount(sub, { email: uniqueEmail('next'), email_verified: true, name: 'Ada' });
      const browser = new Browser();
      const { callback } = await signInWithOidc(browser, trove, idp, sub, { next });
      expect([next, callback.status, callback.location]).toEqual([
        next,
        302,
        `${trove.baseUrl}${landing}`,
      ]);
      expect(browser.cookie(`${trove.baseUrl}${CALLBACK_PATH}`, 'trove.oidc.next')).toBeFalsy();
    }
  });

  it('signs a returning identity in as the same user, even after the e-mail changed at the provider', async () => {
    const sub = uniqueSub();
    const email = uniqueEmail('back');
    idp.addAccount(sub, { email, email_verified: true, name: 'Grace Hopper' });
    const first = new Browser();
    await signInWithOidc(first, trove, idp, sub);
    const before = await selfWithCookies(first, trove);

    idp.addAccount(sub, { email: uniqueEmail('renamed'), email_verified: true, name: 'Grace' });
    const second = new Browser();
    const { callback, elapsedMs, callbackMs } = await signInWithOidc(second, trove, idp, sub);

    expect(callback.status).toBe(302);
    expect(callback.location).toBe(`${trove.baseUrl}/home`);
    const after = await selfWithCookies(second, trove);
    expect(after.id).toBe(before.id);
    expect(after.groupIds).toEqual(before.groupIds);
    expect(sessionToken(second, trove)).not.toBe(sessionToken(first, trove));
    console.info(
      `OIDC sign-in round trip (returning user): ${elapsedMs.toFixed(0)} ms, ` +
        `of which Trove's callback ${callbackMs.toFixed(0)} ms`,
    );
  });

  it('links the identity to the local account with the same verified e-mail', async () => {
    const local = await signUp(trove, { name: 'Local Linda' });
    const sub = uniqueSub();
    idp.addAccount(sub, {
      email: local.email.toUpperCase(),
      email_verified: 'true',
      name: 'Linda at Acme',
    });
    const browser = new Browser();

    const { callback } = await signInWithOidc(browser, trove, idp, sub);

    expect(callback.location).toBe(`${trove.baseUrl}/home`);
    const self = await selfWithCookies(browser, trove);
    expect(self).toMatchObject({
      id: local.id,
      name: 'Local Linda',
      email: local.email,
      groupIds: [local.groupId],
      oidcIssuer: idp.issuer,
      oidcSubject: sub,
    });
    // The local password still works.
    const again = await signIn(trove, local.email, local.password);
    expect(again.token).toEqual(expect.any(String));
  });

  it('refuses to link a local account whose e-mail the provider has not verified', async () => {
    const local = await signUp(trove);
    const sub = uniqueSub();
    idp.addAccount(sub, { email: local.email, email_verified: false, name: 'Impostor' });
    const browser = new Browser();

    const { callback } = await signInWithOidc(browser, trove, idp, sub);

    expect(callback.status).toBe(302);
    expect(callback.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
    expect(findSetCookie(callback, 'hb.auth.token')).toBeUndefined();
    const self = await trove.http
      .get('/api/v1/users/self')
      .set('Authorization', local.authorization)
      .expect(200);
    expect(self.body.item).toMatchObject({ id: local.id, oidcIssuer: null, oidcSubject: null });
  });

  it('fails when the state cookie is tampered with, missing, or from another sign-in', async () => {
    const sub = uniqueSub();
    const email = uniqueEmail('state');
    idp.addAccount(sub, { email, email_verified: true, name: 'Stateful' });
    const cookieUrl = `${trove.baseUrl}${CALLBACK_PATH}`;

    // Tampered: the payload changed, the signature kept.
    const tampered = new Browser();
    const first = await startSignIn(tampered, trove);
    const back = await authenticateAtProvider(tampered, idp, first.authorizeUrl, sub);
    const [body, signature] = (tampered.cookie(cookieUrl, STATE_COOKIE) ?? '').split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
      expiresAt: number;
    };
    payload.expiresAt += 3600_000;
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
    tampered.setCookie(cookieUrl, STATE_COOKIE, forged, START_PATH);
    const tamperedAnswer = await tampered.get(back);
    expect(tamperedAnswer.status).toBe(302);
    expect(tamperedAnswer.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
    expect(findSetCookie(tamperedAnswer, 'hb.auth.token')).toBeUndefined();

    // Missing.
    const missing = new Browser();
    const second = await startSignIn(missing, trove);
    const backAgain = await authenticateAtProvider(missing, idp, second.authorizeUrl, sub);
    missing.deleteCookie(cookieUrl, STATE_COOKIE);
    const missingAnswer = await missing.get(backAgain);
    expect(missingAnswer.status).toBe(302);
    expect(missingAnswer.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
    expect(findSetCookie(missingAnswer, 'hb.auth.token')).toBeUndefined();

    // Another sign-in's cookie: validly signed, but for another state.
    const mixed = new Browser();
    const third = await startSignIn(mixed, trove);
    const backThird = await authenticateAtProvider(mixed, idp, third.authorizeUrl, sub);
    const other = await startSignIn(new Browser(), trove);
    mixed.setCookie(
      cookieUrl,
      STATE_COOKIE,
      findSetCookie(other.response, STATE_COOKIE)?.value ?? '',
      START_PATH,
    );
    const mixedAnswer = await mixed.get(backThird);
    expect(mixedAnswer.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);

    // No callback signed anyone in: the e-mail is still unused.
    expect(await emailIsFree(trove, email)).toBe(true);
  });

  it('fails when a callback is replayed, or its code is redeemed again under a new state', async () => {
    const sub = uniqueSub();
    idp.addAccount(sub, { email: uniqueEmail('replay'), email_verified: true, name: 'Replay' });
    const browser = new Browser();
    const cookieUrl = `${trove.baseUrl}${CALLBACK_PATH}`;
    const { authorizeUrl } = await startSignIn(browser, trove);
    const back = await authenticateAtProvider(browser, idp, authorizeUrl, sub);
    const stateCookie = browser.cookie(cookieUrl, STATE_COOKIE) ?? '';

    const first = await browser.get(back);
    expect(first.location).toBe(`${trove.baseUrl}/home`);

    // The same URL with the same (saved) state cookie.
    const attacker = new Browser();
    attacker.setCookie(cookieUrl, STATE_COOKIE, stateCookie, START_PATH);
    const replayed = await attacker.get(back);
    expect(replayed.status).toBe(302);
    expect(replayed.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
    expect(findSetCookie(replayed, 'hb.auth.token')).toBeUndefined();

    // The used code with a fresh, valid state: the provider refuses to redeem it twice.
    const fresh = new Browser();
    const { authorizeUrl: freshUrl } = await startSignIn(fresh, trove);
    const withOldCode = new URL(back);
    withOldCode.searchParams.set('state', freshUrl.searchParams.get('state') ?? '');
    const redeemedAgain = await fresh.get(withOldCode);
    expect(redeemedAgain.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
    expect(findSetCookie(redeemedAgain, 'hb.auth.token')).toBeUndefined();
  });

  it('fails when the user refuses consent at the provider', async () => {
    const sub = uniqueSub();
    const email = uniqueEmail('refuses');
    idp.addAccount(sub, { email, email_verified: true, name: 'No Thanks' });
    const browser = new Browser();

    const { callback, callbackUrl: back } = await signInWithOidc(browser, trove, idp, sub, {
      consent: false,
    });

    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(callback.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
    expect(await emailIsFree(trove, email)).toBe(true);
  });

  it('fails on a callback without code and state, and never leaks the reason', async () => {
    const browser = new Browser();
    const answer = await browser.get(`${trove.baseUrl}${CALLBACK_PATH}`);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
    expect(answer.text).not.toMatch(/state|code|cookie/i);
  });
});
