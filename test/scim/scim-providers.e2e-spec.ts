import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  ENTERPRISE_SCHEMA,
  GROUP_SCHEMA,
  json,
  LIST_SCHEMA,
  PATCH_SCHEMA,
  SCIM_TYPE,
  scimClient,
  USER_SCHEMA,
} from './scim-client.js';

const SCIM_TOKEN = `scim-${randomBytes(24).toString('hex')}`;
const SHARED_GROUP = 'Acme';
const ROLE_MAPPING =
  'Entra Engineers=Field kit:user,Okta Engineers=Field kit:user,Authentik Engineers=Field kit:user';

interface Answer {
  status: number;
  body: Record<string, unknown> | undefined;
}

/**
 * The requests Microsoft Entra ID, Okta and Authentik send when they provision users, push a group,
 * change its members and deprovision, as their public documentation shows them (Entra ID's SCIM
 * validation requests, Okta's SCIM 2.0 protocol reference, Authentik's SCIM provider), replayed
 * against Trove with each answer checked.
 */
describe('SCIM as identity providers send it', () => {
  let trove: TestApp;
  let send: ReturnType<typeof scimClient>;
  let base: string;

  /** Sends one request and reads its answer (every answer is SCIM's media type). */
  const replay = async (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    path: string,
    body?: unknown,
  ): Promise<Answer> => {
    const response = await send(method, path, body);
    if (response.status !== 204) expect(response.headers['content-type']).toBe(SCIM_TYPE);
    return { status: response.status, body: response.text ? json(response) : undefined };
  };
  const query = (filter: string, extra = '') => `?filter=${encodeURIComponent(filter)}${extra}`;
  const fieldKitRole = async (userId: string): Promise<string | undefined> =>
    (
      await trove.query<{ role: string }>(
        `SELECT m.role FROM group_memberships m JOIN groups g ON g.id = m.group_id
          WHERE g.name = 'Field kit' AND m.user_id = $1`,
        [userId],
      )
    )[0]?.role;
  const userRow = async (id: string) =>
    (
      await trove.query<{ name: string; email: string; disabled: boolean }>(
        `SELECT name, email, disabled_at IS NOT NULL AS disabled FROM users WHERE id = $1`,
        [id],
      )
    )[0];
  const emptyList = {
    schemas: [LIST_SCHEMA],
    totalResults: 0,
    startIndex: 1,
    itemsPerPage: 0,
    Resources: [],
  };

  beforeAll(async () => {
    trove = await createTestApp({
      TROVE_OIDC_SHARED_GROUP: SHARED_GROUP,
      TROVE_OIDC_ROLE_MAPPING: ROLE_MAPPING,
      TROVE_SCIM_TOKEN: SCIM_TOKEN,
    });
    send = scimClient(trove, SCIM_TOKEN);
    base = `${trove.baseUrl}/scim/v2`;
  });
  afterAll(async () => {
    await trove?.close();
  });

  it('Microsoft Entra ID: users with the enterprise extension and roles, then a group', async () => {
    const tag = randomUUID();
    const userName = `Test_User_${tag}`;
    const email = `Test_User_${tag}@testuser.com`;
    // Entra asks whether the user exists, then creates it.
    expect(await replay('get', `/Users${query(`userName eq "${userName}"`)}`)).toEqual({
      status: 200,
      body: emptyList,
    });
    const created = await replay('post', '/Users', {
      schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName,
      active: true,
      emails: [{ primary: true, type: 'work', value: email }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [{ primary: 'True', type: 'WindowsAzureActiveDirectoryRole', value: 'Admin' }],
      [ENTERPRISE_SCHEMA]: {
        employeeNumber: '701984',
        department: 'Tour Operations',
        manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d' },
      },
    });
    const id = created.body?.id as string;
    expect(created).toEqual({
      status: 201,
      body: {
        schemas: [USER_SCHEMA],
        id,
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName,
        name: {
          formatted: 'givenName familyName',
          givenName: 'givenName',
          familyName: 'familyName',
        },
        displayName: 'givenName familyName',
        emails: [{ value: email.toLowerCase(), type: 'work', primary: true }],
        active: true,
        meta: expect.objectContaining({ resourceType: 'User', location: `${base}/Users/${id}` }),
      },
    });
    expect((await replay('get', `/Users/${id}`)).body).toEqual(created.body);
    expect(await replay('get', `/Users${query(`userName eq "${userName}"`)}`)).toMatchObject({
      status: 200,
      body: { totalResults: 1, Resources: [{ id, userName }] },
    });
    expect(await replay('get', `/Users${query('userName eq "non-existent user"')}`)).toEqual({
      status: 200,
      body: emptyList,
    });
    // Several attributes at once, one through a value filter on e-mails.
    const updated = await replay('patch', `/Users/${id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [
        {
          op: 'Replace',
          path: 'emails[type eq "work"].value',
          value: `updated_${tag}@testuser.com`,
        },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
      ],
    });
    expect(updated).toMatchObject({
      status: 200,
      body: {
        emails: [{ value: `updated_${tag}@testuser.com`, type: 'work', primary: true }],
        name: { givenName: 'givenName', familyName: 'updatedFamilyName' },
      },
    });
    expect(await userRow(id)).toEqual({
      name: 'givenName updatedFamilyName',
      email: `updated_${tag}@testuser.com`,
      disabled: false,
    });
    expect(
      await replay('patch', `/Users/${id}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'Replace', path: 'userName', value: `${tag}@testuser.com` }],
      }),
    ).toMatchObject({ status: 200, body: { userName: `${tag}@testuser.com` } });

    // Attributes Trove does not keep are ignored beside those it keeps, never refused.
    expect(
      await replay('patch', `/Users/${id}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [
          { op: 'Add', path: 'title', value: 'Field engineer' },
          { op: 'Add', path: `${ENTERPRISE_SCHEMA}:department`, value: 'Operations' },
          { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '+44 20 7946 0000' },
          {
            op: 'Add',
            path: 'roles',
            value: [{ type: 'WindowsAzureActiveDirectoryRole', value: 'Admin' }],
          },
          { op: 'Replace', path: `${USER_SCHEMA}:name.givenName`, value: 'updatedGivenName' },
        ],
      }),
    ).toMatchObject({
      status: 200,
      body: { name: { givenName: 'updatedGivenName', familyName: 'updatedFamilyName' } },
    });
    expect((await userRow(id)).name).toBe('updatedGivenName updatedFamilyName');

    // A group with Entra's own schema URN; members added and removed with a null $ref.
    const group = await replay('post', '/Groups', {
      schemas: [
        GROUP_SCHEMA,
        'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group',
      ],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName: 'Entra Engineers',
      meta: { resourceType: 'Group' },
    });
    const groupId = group.body?.id as string;
    expect(group).toEqual({
      status: 201,
      body: {
        schemas: [GROUP_SCHEMA],
        id: groupId,
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        displayName: 'Entra Engineers',
        meta: expect.objectContaining({
          resourceType: 'Group',
          location: `${base}/Groups/${groupId}`,
        }),
      },
    });
    expect(await replay('get', `/Groups/${groupId}?excludedAttributes=members`)).toEqual({
      status: 200,
      body: group.body,
    });
    expect(
      await replay(
        'get',
        `/Groups${query('displayName eq "Entra Engineers"', '&excludedAttributes=members')}`,
      ),
    ).toMatchObject({ status: 200, body: { totalResults: 1, Resources: [{ id: groupId }] } });
    expect(
      await replay('patch', `/Groups/${groupId}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: id }] }],
      }),
    ).toMatchObject({ status: 200, body: { members: [{ value: id, type: 'User' }] } });
    expect(await fieldKitRole(id)).toBe('user');
    const removed = await replay('patch', `/Groups/${groupId}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: id }] }],
    });
    expect(removed.status).toBe(200);
    expect(removed.body?.members).toBeUndefined();
    expect(await fieldKitRole(id)).toBeUndefined();
    expect(
      await replay('patch', `/Groups/${groupId}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'Replace', path: 'displayName', value: 'Entra Engineers (EU)' }],
      }),
    ).toMatchObject({ status: 200, body: { displayName: 'Entra Engineers (EU)' } });

    // Deprovisioning: disabled with the string "False", then deleted.
    expect(
      await replay('patch', `/Users/${id}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
      }),
    ).toMatchObject({ status: 200, body: { active: false } });
    expect((await userRow(id)).disabled).toBe(true);
    expect(await replay('delete', `/Groups/${groupId}`)).toEqual({ status: 204, body: undefined });
    expect(await replay('delete', `/Users/${id}`)).toEqual({ status: 204, body: undefined });
    expect(await userRow(id)).toBeUndefined();
    expect((await replay('get', `/Users/${id}`)).status).toBe(404);
  });

  it('Okta: users with a password and locale, a full replace, then a group pushed and changed', async () => {
    const login = `test.user.${randomBytes(3).toString('hex')}@okta.local`;
    expect(
      await replay('get', `/Users${query(`userName eq "${login}"`, '&startIndex=1&count=100')}`),
    ).toEqual({ status: 200, body: { ...emptyList } });
    const created = await replay('post', '/Users', {
      schemas: [USER_SCHEMA],
      userName: login,
      name: { givenName: 'Test', familyName: 'User' },
      emails: [{ primary: true, value: login, type: 'work' }],
      displayName: 'Test User',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq',
      active: true,
    });
    const id = created.body?.id as string;
    expect(created).toMatchObject({
      status: 201,
      body: {
        id,
        userName: login,
        displayName: 'Test User',
        externalId: '00ujl29u0le5T6Aj10h7',
        active: true,
      },
    });
    expect(created.body).not.toHaveProperty('password');
    expect(created.body).not.toHaveProperty('locale');
    const replaced = await replay('put', `/Users/${id}`, {
      schemas: [USER_SCHEMA],
      id,
      userName: login,
      name: { givenName: 'Another', familyName: 'User' },
      emails: [{ primary: true, value: login, type: 'work' }],
      displayName: 'Another User',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: 't1meMa$heen',
      active: true,
    });
    expect(replaced).toMatchObject({
      status: 200,
      body: { displayName: 'Another User', name: { givenName: 'Another', familyName: 'User' } },
    });

    expect(
      await replay(
        'get',
        `/Groups${query('displayName eq "Okta Engineers"', '&startIndex=1&count=100')}`,
      ),
    ).toEqual({ status: 200, body: emptyList });
    const group = await replay('post', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'Okta Engineers',
      members: [],
    });
    const groupId = group.body?.id as string;
    expect(group).toMatchObject({
      status: 201,
      body: { id: groupId, displayName: 'Okta Engineers' },
    });
    expect(await replay('get', `/Groups/${groupId}`)).toMatchObject({
      status: 200,
      body: group.body,
    });
    expect(
      await replay('patch', `/Groups/${groupId}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'add', path: 'members', value: [{ value: id, display: login }] }],
      }),
    ).toMatchObject({
      status: 200,
      body: { members: [{ value: id, display: 'Another User', type: 'User' }] },
    });
    expect(await fieldKitRole(id)).toBe('user');
    expect(
      await replay('patch', `/Groups/${groupId}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'replace', value: { id: groupId, displayName: 'Okta Engineers' } }],
      }),
    ).toMatchObject({ status: 200, body: { displayName: 'Okta Engineers' } });
    const removed = await replay('patch', `/Groups/${groupId}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }],
    });
    expect([removed.status, removed.body?.members]).toEqual([200, undefined]);
    expect(await fieldKitRole(id)).toBeUndefined();

    // Deactivation and a password change, as Okta sends them, without a path.
    expect(
      await replay('patch', `/Users/${id}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'replace', value: { active: false } }],
      }),
    ).toMatchObject({ status: 200, body: { active: false } });
    expect(
      await replay('patch', `/Users/${id}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'replace', value: { password: 'an0ther' } }],
      }),
    ).toMatchObject({ status: 200, body: { active: false } });
    expect(await replay('delete', `/Groups/${groupId}`)).toEqual({ status: 204, body: undefined });
    expect((await replay('get', `/Groups/${groupId}`)).status).toBe(404);
  });

  it('Authentik: discovery first, users and groups written with PUT, members changed by PATCH', async () => {
    expect(await replay('get', '/ServiceProviderConfig')).toMatchObject({
      status: 200,
      body: { patch: { supported: true }, filter: { supported: true, maxResults: 200 } },
    });
    const uid = randomBytes(8).toString('hex');
    const email = `akuser-${uid}@authentik.local`;
    const user = {
      schemas: [USER_SCHEMA],
      userName: `akuser-${uid}`,
      name: { formatted: 'Authentik User', givenName: 'Authentik', familyName: 'User' },
      displayName: 'Authentik User',
      active: true,
      emails: [{ value: email, type: 'other', primary: true }],
      externalId: uid,
      photos: [{ value: 'https://authentik.local/avatar.png', type: 'photo' }],
    };
    const created = await replay('post', '/Users', user);
    const id = created.body?.id as string;
    expect(created).toMatchObject({
      status: 201,
      body: { id, userName: `akuser-${uid}`, externalId: uid, displayName: 'Authentik User' },
    });
    // A second create of the same user is a conflict; Authentik then finds it by userName.
    expect(await replay('post', '/Users', user)).toMatchObject({
      status: 409,
      body: { scimType: 'uniqueness' },
    });
    expect(await replay('get', `/Users${query(`userName eq "akuser-${uid}"`)}`)).toMatchObject({
      status: 200,
      body: { totalResults: 1, Resources: [{ id }] },
    });
    expect(
      await replay('put', `/Users/${id}`, {
        ...user,
        id,
        name: { formatted: 'Authentik Renamed', givenName: 'Authentik', familyName: 'Renamed' },
        displayName: 'Authentik Renamed',
      }),
    ).toMatchObject({ status: 200, body: { displayName: 'Authentik Renamed' } });
    expect((await userRow(id)).name).toBe('Authentik Renamed');

    const group = await replay('post', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'Authentik Engineers',
      externalId: `group-${uid}`,
      members: [{ value: id }],
    });
    const groupId = group.body?.id as string;
    expect(group).toMatchObject({ status: 201, body: { members: [{ value: id }] } });
    expect(await fieldKitRole(id)).toBe('user');
    expect(
      await replay('put', `/Groups/${groupId}`, {
        schemas: [GROUP_SCHEMA],
        id: groupId,
        displayName: 'Authentik Engineers',
        externalId: `group-${uid}`,
        members: [],
      }),
    ).toMatchObject({ status: 200, body: { displayName: 'Authentik Engineers' } });
    expect(await fieldKitRole(id)).toBeUndefined();
    for (const op of ['add', 'remove'] as const) {
      const changed = await replay('patch', `/Groups/${groupId}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op, path: 'members', value: [{ value: id }] }],
      });
      expect(changed.status).toBe(200);
      expect(await fieldKitRole(id)).toBe(op === 'add' ? 'user' : undefined);
    }
    expect(await replay('delete', `/Groups/${groupId}`)).toEqual({ status: 204, body: undefined });
    expect(await replay('delete', `/Users/${id}`)).toEqual({ status: 204, body: undefined });
    expect(await userRow(id)).toBeUndefined();
  });

  it('takes core attributes named under the core schema URN (RFC 7644 §3.10)', async () => {
    const userName = `qualified-${randomBytes(3).toString('hex')}`;
    const created = await replay('post', '/Users', {
      schemas: [USER_SCHEMA],
      [USER_SCHEMA]: { userName, emails: [{ value: `${userName}@example.com` }] },
    });
    expect(created).toMatchObject({ status: 201, body: { userName } });
    const group = await replay('post', '/Groups', {
      schemas: [GROUP_SCHEMA],
      [GROUP_SCHEMA]: { displayName: `Qualified ${userName}` },
    });
    expect(group).toMatchObject({ status: 201, body: { displayName: `Qualified ${userName}` } });
  });
});
