import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueEmail } from '../support/factories.js';
import { Browser } from '../oidc/browser.js';
import {
  callbackUrl,
  oidcEnv,
  selfWithCookies,
  sessionToken,
  signInWithOidc,
} from '../oidc/sign-in.js';
import { TestProvider } from '../oidc/test-provider.js';
import type { HistoryPage } from './history-helpers.js';

describe('history: changes made with a single sign-on session', () => {
  let idp: TestProvider;
  let trove: TestApp;

  beforeAll(async () => {
    idp = await TestProvider.start();
    trove = await createTestApp(oidcEnv(idp));
    idp.registerClient([callbackUrl(trove)]);
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });

  it('are attributed to the SSO identity, also after the session is refreshed', async () => {
    idp.addAccount('sub-history', {
      email: uniqueEmail('sso'),
      email_verified: true,
      name: 'Grace',
    });
    const browser = new Browser();
    await signInWithOidc(browser, trove, idp, 'sub-history');
    const self = await selfWithCookies(browser, trove);
    const authorization = `Bearer ${sessionToken(browser, trove)}`;

    const created = await trove.http
      .post('/api/v1/entities')
      .set('Authorization', authorization)
      .send({ name: 'Projector' })
      .expect(201);
    const id = (created.body as { id: string }).id;
    const refreshed = await trove.http
      .get('/api/v1/users/refresh')
      .set('Authorization', authorization)
      .expect(200);
    const renewed = `Bearer ${(refreshed.body as { raw: string }).raw.replace(/^Bearer /, '')}`;
    await trove.http
      .patch(`/api/v1/entities/${id}`)
      .set('Authorization', renewed)
      .send({ quantity: 2 })
      .expect(200);

    const history = await trove.http
      .get(`/api/v1/entities/${id}/history`)
      .set('Authorization', renewed)
      .expect(200);
    const sso = { type: 'sso', id: self.id, name: 'Grace', apiKey: null, issuer: idp.issuer };
    expect((history.body as HistoryPage).items.map((entry) => [entry.action, entry.actor])).toEqual(
      [
        ['update', sso],
        ['create', sso],
      ],
    );
  });
});
