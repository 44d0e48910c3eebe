import { expect } from 'vitest';
import type { TestApp } from '../support/test-app.js';
import type { Browser, BrowserResponse } from './browser.js';
import { TEST_CLIENT_ID, TEST_CLIENT_SECRET, type TestProvider } from './test-provider.js';

export const START_PATH = '/api/v1/users/login/oidc';
export const CALLBACK_PATH = '/api/v1/users/login/oidc/callback';
export const FAILURE_LOCATION = '/?oidc_error=oidc_auth_failed';
/** The failure page of a sign-in refused because the account is disabled. */
export const DISABLED_LOCATION = `${FAILURE_LOCATION}&oidc_reason=account_disabled`;
export const STATE_COOKIE = 'trove.oidc.state';

/** Trove's environment for signing in at the test provider. */
export function oidcEnv(provider: TestProvider, extra: Record<string, string> = {}) {
  return {
    TROVE_OIDC_ENABLED: 'true',
    TROVE_OIDC_ISSUER_URL: provider.issuer,
    TROVE_OIDC_CLIENT_ID: TEST_CLIENT_ID,
    TROVE_OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET,
    TROVE_OIDC_SCOPE: 'openid profile email groups',
    ...extra,
  };
}

export const callbackUrl = (trove: TestApp): string => `${trove.baseUrl}${CALLBACK_PATH}`;

/** GET Trove's start route: it must redirect to the provider. */
export async function startSignIn(
  browser: Browser,
  trove: TestApp,
  next?: string,
): Promise<{ response: BrowserResponse; authorizeUrl: URL }> {
  const query = next === undefined ? '' : `?next=${encodeURIComponent(next)}`;
  const response = await browser.get(`${trove.baseUrl}${START_PATH}${query}`);
  expect(response.status, response.text).toBe(302);
  return { response, authorizeUrl: new URL(response.location ?? '') };
}

/**
 * Follows the provider's redirects from the authorization URL, signs in as `login` and grants
 * (or refuses) consent when asked, until the provider redirects back out of itself. Returns
 * that URL (Trove's callback with code and state, or an error).
 */
export async function authenticateAtProvider(
  browser: Browser,
  provider: TestProvider,
  authorizeUrl: URL,
  login: string,
  options: { consent?: boolean } = {},
): Promise<URL> {
  let next = authorizeUrl;
  for (let hop = 0; hop < 20; hop += 1) {
    if (next.origin !== provider.origin) return next;
    let response: BrowserResponse;
    const interaction = /^\/interaction\/[^/]+$/.exec(next.pathname);
    if (interaction) {
      const details = await browser.get(next);
      expect(details.status, details.text).toBe(200);
      const { prompt } = JSON.parse(details.text) as { prompt: string };
      if (prompt === 'login') {
        response = await browser.post(`${next.toString()}/login`, { login });
      } else {
        const action = options.consent === false ? 'abort' : 'confirm';
        response = await browser.post(`${next.toString()}/${action}`);
      }
    } else {
      response = await browser.get(next);
    }
    expect([302, 303], `${response.url}: ${response.text}`).toContain(response.status);
    next = new URL(response.location ?? '');
  }
  throw new Error('the provider redirected more than 20 times');
}

export interface SignInResult {
  /** Trove's answer on its callback. */
  callback: BrowserResponse;
  /** The callback URL the provider sent the browser to. */
  callbackUrl: URL;
  /** Milliseconds from the start route to Trove's answer on the callback. */
  elapsedMs: number;
  /** Milliseconds Trove took to answer the callback (code exchange, UserInfo, user, session). */
  callbackMs: number;
}

/** The whole round trip: Trove → provider (login, consent) → Trove's callback. */
export async function signInWithOidc(
  browser: Browser,
  trove: TestApp,
  provider: TestProvider,
  login: string,
  options: { consent?: boolean; next?: string } = {},
): Promise<SignInResult> {
  const started = performance.now();
  const { authorizeUrl } = await startSignIn(browser, trove, options.next);
  const back = await authenticateAtProvider(browser, provider, authorizeUrl, login, options);
  expect(back.toString().startsWith(callbackUrl(trove))).toBe(true);
  const callbackStarted = performance.now();
  const callback = await browser.get(back);
  const finished = performance.now();
  return {
    callback,
    callbackUrl: back,
    elapsedMs: finished - started,
    callbackMs: finished - callbackStarted,
  };
}

export interface SelfView {
  id: string;
  name: string;
  email: string;
  defaultGroupId: string | null;
  groupIds: string[];
  oidcIssuer: string | null;
  oidcSubject: string | null;
}

/** GET /api/v1/users/self with the session cookies the browser holds for Trove. */
export async function selfWithCookies(browser: Browser, trove: TestApp): Promise<SelfView> {
  const response = await trove.http
    .get('/api/v1/users/self')
    .set('Cookie', browser.cookieHeader(`${trove.baseUrl}/api/v1/users/self`))
    .expect(200);
  return (response.body as { item: SelfView }).item;
}

/** The session token the browser holds for Trove (the `hb.auth.token` cookie). */
export function sessionToken(browser: Browser, trove: TestApp): string {
  const token = browser.cookie(trove.baseUrl, 'hb.auth.token');
  expect(token).toEqual(expect.any(String));
  return decodeURIComponent(token ?? '');
}

/** True when no user has this e-mail: registering it succeeds (and then it exists, of course). */
export async function emailIsFree(trove: TestApp, email: string): Promise<boolean> {
  const response = await trove.http
    .post('/api/v1/users/register')
    .send({ name: 'Probe', email, password: 'correct horse battery' });
  return response.status === 204;
}
