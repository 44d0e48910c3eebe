import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { Browser } from './browser.js';
import { callbackUrl, oidcEnv, sessionToken, signInWithOidc } from './sign-in.js';
import { TestProvider } from './test-provider.js';

const uniqueSub = (): string => `sub-${randomBytes(6).toString('hex')}`;

/** Signs in at the provider as `sub` with these claims; answers the Authorization header. */
async function ssoSignIn(
  trove: TestApp,
  idp: TestProvider,
  sub: string,
  claims: Record<string, unknown>,
): Promise<string> {
  idp.addAccount(sub, claims);
  const browser = new Browser();
  const { callback } = await signInWithOidc(browser, trove, idp, sub);
  expect(callback.status).toBe(302);
  return `Bearer ${sessionToken(browser, trove)}`;
}

const statusOf = async (trove: TestApp, authorization: string): Promise<number> =>
  (await trove.http.get('/api/v1/admin/status').set('Authorization', authorization)).status;

describe('OIDC: a provider group mapped to admin makes instance administrators', () => {
  let idp: TestProvider;
  let trove: TestApp;

  beforeAll(async () => {
    idp = await TestProvider.start();
    trove = await createTestApp(oidcEnv(idp, { TROVE_OIDC_ROLE_MAPPING: 'it-staff=admin' }));
    idp.registerClient([callbackUrl(trove)]);
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });

  it('a member of the provider group is one from their sign-in on, and no longer once out of it', async () => {
    const sub = uniqueSub();
    const email = uniqueEmail('it');
    const claims = { email, email_verified: true, name: 'Ida IT' };
    const admin = await ssoSignIn(trove, idp, sub, { ...claims, groups: ['staff', 'it-staff'] });
    expect(await statusOf(trove, admin)).toBe(200);
    const users = await trove.http
      .get('/api/v1/admin/users')
      .set('Authorization', admin)
      .expect(200);
    expect(users.body.items).toEqual([
      expect.objectContaining({ name: 'Ida IT', email, instanceAdmin: true }),
    ]);
    const status = await trove.http
      .get('/api/v1/admin/status')
      .set('Authorization', admin)
      .expect(200);
    expect(status.body.sso).toEqual({ configured: true, issuer: idp.issuer, sharedGroup: null });

    // Signed in again after leaving the provider group: no longer an administrator.
    const later = await ssoSignIn(trove, idp, sub, { ...claims, groups: ['staff'] });
    expect(await statusOf(trove, later)).toBe(403);
  });

  it('anyone else is none', async () => {
    const other = await ssoSignIn(trove, idp, uniqueSub(), {
      email: uniqueEmail('staff'),
      email_verified: true,
      name: 'Sam Staff',
      groups: ['staff'],
    });
    expect(await statusOf(trove, other)).toBe(403);
  });
});
