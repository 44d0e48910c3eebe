import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, uniqueEmail, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { Browser } from './browser.js';
import {
  callbackUrl,
  emailIsFree,
  FAILURE_LOCATION,
  oidcEnv,
  selfWithCookies,
  sessionToken,
  signInWithOidc,
  type SelfView,
} from './sign-in.js';
import { TestProvider } from './test-provider.js';

const uniqueSub = (): string => `sub-${randomBytes(6).toString('hex')}`;

interface SignedIn {
  self: SelfView;
  authorization: string;
}

async function ssoSignIn(
  trove: TestApp,
  idp: TestProvider,
  sub: string,
  claims: Record<string, unknown>,
): Promise<SignedIn> {
  idp.addAccount(sub, claims);
  const browser = new Browser();
  const { callback } = await signInWithOidc(browser, trove, idp, sub);
  expect(callback.status).toBe(302);
  expect(callback.location).toBe(`${trove.baseUrl}/home`);
  return {
    self: await selfWithCookies(browser, trove),
    authorization: `Bearer ${sessionToken(browser, trove)}`,
  };
}

async function members(trove: TestApp, authorization: string, tenant?: string) {
  const request = trove.http.get('/api/v1/groups/members').set('Authorization', authorization);
  if (tenant) request.set('X-Tenant', tenant);
  const response = await request.expect(200);
  return response.body as { id: string; role: string }[];
}

describe('OIDC sign-in into a shared group with role mapping', () => {
  let idp: TestProvider;
  let trove: TestApp;
  let local: Session;
  let localSharedName: string;
  let admin: SignedIn;
  let auditor: SignedIn;
  const adminSub = uniqueSub();
  const auditorSub = uniqueSub();

  beforeAll(async () => {
    idp = await TestProvider.start();
    trove = await createTestApp(
      oidcEnv(idp, {
        TROVE_OIDC_SHARED_GROUP: 'Acme Inventory',
        TROVE_OIDC_ROLE_MAPPING: 'it-admins=owner, staff=user, auditors=viewer',
      }),
    );
    idp.registerClient([callbackUrl(trove)]);
    // A local user's group that happens to bear the same name must not be taken over.
    local = await signUp(trove, { name: 'Local Larry' });
    const created = await trove.http
      .post('/api/v1/groups')
      .set('Authorization', local.authorization)
      .send({ name: 'Acme Inventory' })
      .expect(201);
    localSharedName = (created.body as { id: string }).id;
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });

  it('creates the shared group at the first sign-in, with the mapped owner, and no group of their own', async () => {
    admin = await ssoSignIn(trove, idp, adminSub, {
      email: uniqueEmail('admin'),
      email_verified: true,
      name: 'Alice Admin',
      groups: ['it-admins'],
    });

    expect(admin.self.groupIds).toEqual([admin.self.defaultGroupId]);
    expect(admin.self.defaultGroupId).not.toBe(localSharedName);
    const group = await trove.http
      .get('/api/v1/groups')
      .set('Authorization', admin.authorization)
      .expect(200);
    expect(group.body).toMatchObject({ id: admin.self.defaultGroupId, name: 'Acme Inventory' });
    expect(await members(trove, admin.authorization)).toEqual([
      {
        id: admin.self.id,
        name: 'Alice Admin',
        email: admin.self.email,
        role: 'owner',
        disabled: false,
      },
    ]);
  });

  it('puts later users in the same group with their mapped role (viewer)', async () => {
    auditor = await ssoSignIn(trove, idp, auditorSub, {
      email: uniqueEmail('auditor'),
      email_verified: true,
      name: 'Bob Auditor',
      groups: ['auditors'],
    });

    expect(auditor.self.groupIds).toEqual([admin.self.defaultGroupId]);
    const list = await members(trove, admin.authorization);
    expect(list).toEqual([
      expect.objectContaining({ id: admin.self.id, role: 'owner' }),
      expect.objectContaining({ id: auditor.self.id, role: 'viewer' }),
    ]);
    // The viewer role is enforced: renaming the group is refused.
    await trove.http
      .put('/api/v1/groups')
      .set('Authorization', auditor.authorization)
      .send({ name: 'Mine now' })
      .expect(403);
  });

  it('gives the highest role of the user’s mapped groups', async () => {
    const both = await ssoSignIn(trove, idp, uniqueSub(), {
      email: uniqueEmail('both'),
      email_verified: true,
      name: 'Carol Both',
      groups: ['auditors', 'staff', 'unmapped'],
    });

    const list = await members(trove, admin.authorization);
    expect(list.find((member) => member.id === both.self.id)?.role).toBe('user');
  });

  it('updates the role at every sign-in from the provider’s current groups', async () => {
    await ssoSignIn(trove, idp, auditorSub, {
      email: auditor.self.email,
      email_verified: true,
      name: 'Bob Auditor',
      groups: ['it-admins'],
    });
    let list = await members(trove, admin.authorization);
    expect(list.find((member) => member.id === auditor.self.id)?.role).toBe('owner');

    await ssoSignIn(trove, idp, auditorSub, {
      email: auditor.self.email,
      email_verified: true,
      name: 'Bob Auditor',
      groups: ['staff'],
    });
    list = await members(trove, admin.authorization);
    expect(list.find((member) => member.id === auditor.self.id)?.role).toBe('user');
  });

  it('refuses a user none of whose groups is mapped, creating no user', async () => {
    const sub = uniqueSub();
    const email = uniqueEmail('unmapped');
    idp.addAccount(sub, {
      email,
      email_verified: true,
      name: 'Dave',
      groups: ['contractors'],
    });
    const { callback } = await signInWithOidc(new Browser(), trove, idp, sub);

    expect(callback.location).toBe(`${trove.baseUrl}${FAILURE_LOCATION}`);
    expect(await emailIsFree(trove, email)).toBe(true);
    expect(await members(trove, admin.authorization)).toHaveLength(3);
  });

  it('adds a linked local account to the shared group, keeping its own groups', async () => {
    const linked = await ssoSignIn(trove, idp, uniqueSub(), {
      email: local.email,
      email_verified: true,
      name: 'Larry at Acme',
      groups: ['staff'],
    });

    expect(linked.self.id).toBe(local.id);
    expect(linked.self.defaultGroupId).toBe(local.groupId);
    expect([...linked.self.groupIds].sort()).toEqual(
      [local.groupId, localSharedName, admin.self.defaultGroupId].sort(),
    );
    const list = await members(trove, admin.authorization);
    expect(list.find((member) => member.id === local.id)?.role).toBe('user');
    // The local group of the same name still has only its creator.
    expect(await members(trove, local.authorization, localSharedName)).toEqual([
      expect.objectContaining({ id: local.id, role: 'owner' }),
    ]);
  });
});

describe('OIDC sign-in into a shared group without a role mapping', () => {
  let idp: TestProvider;
  let trove: TestApp;

  beforeAll(async () => {
    idp = await TestProvider.start();
    trove = await createTestApp(oidcEnv(idp, { TROVE_OIDC_SHARED_GROUP: 'Everyone' }));
    idp.registerClient([callbackUrl(trove)]);
  });
  afterAll(async () => {
    await trove?.close();
    await idp?.close();
  });

  it('makes the first user its owner and later users plain members of the one group', async () => {
    const first = await ssoSignIn(trove, idp, uniqueSub(), {
      email: uniqueEmail('first'),
      email_verified: true,
      name: 'First',
    });
    const second = await ssoSignIn(trove, idp, uniqueSub(), {
      email: uniqueEmail('second'),
      email_verified: true,
      name: 'Second',
      groups: ['whatever'],
    });

    expect(first.self.groupIds).toEqual([first.self.defaultGroupId]);
    expect(second.self.groupIds).toEqual([first.self.defaultGroupId]);
    expect(await members(trove, first.authorization)).toEqual([
      expect.objectContaining({ id: first.self.id, role: 'owner' }),
      expect.objectContaining({ id: second.self.id, role: 'user' }),
    ]);
  });
});
