import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { Browser, findSetCookie } from './browser.js';
import {
  callbackUrl,
  emailIsFree,
  FAILURE_LOCATION,
  oidcEnv,
  selfWithCookies,
  signInWithOidc,
} from './sign-in.js';
import { TestProvider } from './test-provider.js';

const uniqueSub = (): string => `sub-${randomBytes(6).toString('hex')}`;

describe('OIDC sign-in with TROVE_OIDC_VERIFY_EMAIL and TROVE_OIDC_ALLOWED_GROUPS', () => {
  let idp: TestProvider;
  let trove: TestApp;

  beforeAll(async () => {
    idp = await TestProvider.start();
    trove = await createTestApp(
      oidcEnv(idp, {
        TROVE_OIDC_VERIFY_EMAIL: 'true',
        TROVE_OIDC_ALLOWED_GROUPS: 'staff, admins',
        TROVE_OIDC_GROUP_CLAIM: 'groups',
      }),
    );
    idp.registerClient([callbackUrl(trove)]);
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });

  const signInAs = async (claims: Record<string, unknown>) => {
    const sub = uniqueSub();
    idp.addAccount(sub, claims);
    const browser = new Browser();
    const { callback } = await signInWithOidc(browser, trove, idp, sub);
    return { browser, callback, sub };
  };

  it('admits a member of an allowed group whose e-mail is verified', async () => {
    const email = uniqueEmail('member');
    const { browser, callback, sub } = await signInAs({
      email,
      email_verified: true,
      name: 'Member',
      groups: ['other', 'staff'],
    });

    expect(callback.status).toBe(302);
    expect(callback.location).toBe(`${trove.baseUrl}/home`);
    expect(await selfWithCookies(browser, trove)).toMatchObject({ email, oidcSubject: sub });
  });

  it('takes the verification flag as a string and the groups as a single string', async () => {
    const email = uniqueEmail('strings');
    const { browser, callback } = await signInAs({
      email,
      email_verified: 'true',
      name: 'Stringly',
      groups: 'admins',
    });

    expect(callback.location).toBe(`${trove.baseUrl}/home`);
    expect((await selfWithCookies(browser, trove)).email).toBe(email);
  });

  it.each([
    ['false', false],
    ['"false"', 'false'],
    ['missing', undefined],
  ])('refuses an e-mail whose verification flag is %s, creating no user', async (_label, flag) => {
    const email = uniqueEmail('unverified');
    const { callback } = await signInAs({
      email,
      ...(flag === undefined ? {} : { email_verified: flag }),
      name: 'Unverified',
      groups: ['staff'],
    });

    expect(callback.status).toBe(302);
    expect(callback.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
    expect(findSetCookie(callback, 'hb.auth.token')).toBeUndefined();
    expect(await emailIsFree(trove, email)).toBe(true);
  });

  it('refuses a verified user in none of the allowed groups, creating no user', async () => {
    const email = uniqueEmail('outsider');
    const { callback } = await signInAs({
      email,
      email_verified: true,
      name: 'Outsider',
      groups: ['contractors', 'Staff'],
    });

    expect(callback.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
    expect(findSetCookie(callback, 'hb.auth.token')).toBeUndefined();
    expect(await emailIsFree(trove, email)).toBe(true);
  });

  it('refuses a user without any groups, and one without an e-mail', async () => {
    const noGroups = await signInAs({ email: uniqueEmail('nogroups'), email_verified: true });
    expect(noGroups.callback.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);

    const noEmail = await signInAs({ name: 'Nameless', groups: ['staff'] });
    expect(noEmail.callback.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
  });

  it('names the user after the e-mail when the provider sends no name', async () => {
    const email = uniqueEmail('noname');
    const { browser, callback } = await signInAs({
      email,
      email_verified: true,
      groups: ['staff'],
    });

    expect(callback.location).toBe(`${trove.baseUrl}/home`);
    expect(await selfWithCookies(browser, trove)).toMatchObject({ name: email, email });
  });
});
