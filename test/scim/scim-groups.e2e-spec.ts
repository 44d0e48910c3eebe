import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Browser } from '../oidc/browser.js';
import { callbackUrl, oidcEnv, sessionToken, signInWithOidc } from '../oidc/sign-in.js';
import { TestProvider } from '../oidc/test-provider.js';
import { uniqueEmail } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  GROUP_SCHEMA,
  json,
  LIST_SCHEMA,
  patchOp,
  SCIM_TYPE,
  scimClient,
  scimError,
  SEARCH_SCHEMA,
  USER_SCHEMA,
} from './scim-client.js';

const SCIM_TOKEN = `scim-${randomBytes(24).toString('hex')}`;
const SHARED_GROUP = 'Acme';
/** Provider groups: a role in the shared group, membership of the Trove group "Warehouse". */
const ROLE_MAPPING =
  'Staff=user,Acme Admins=owner,Warehouse Team=Warehouse:user,Warehouse Leads=Warehouse:owner';

interface Member {
  id: string;
  sub: string;
  email: string;
  name: string;
}

interface ScimGroup {
  id: string;
  displayName: string;
  members?: { value: string; display: string; $ref: string; type: string }[];
  meta: { created: string; lastModified: string; location: string; resourceType: string };
}

/**
 * SCIM Groups as identity providers push them: the resource and its operations, and what a pushed
 * group grants in Trove through TROVE_OIDC_ROLE_MAPPING, on two instances of one database.
 */
describe('SCIM 2.0 groups', () => {
  let idp: TestProvider;
  let trove: TestApp;
  let second: TestApp;
  let base: string;
  let send: ReturnType<typeof scimClient>;
  const people: Member[] = [];

  const count = async (table: string): Promise<number> =>
    Number((await trove.query<{ count: string }>(`SELECT count(*) FROM ${table}`))[0].count);
  const warehouseId = async (): Promise<string | undefined> =>
    (await trove.query<{ id: string }>(`SELECT id FROM groups WHERE name = 'Warehouse'`))[0]?.id;
  const roleIn = async (groupName: string, userId: string): Promise<string | undefined> =>
    (
      await trove.query<{ role: string }>(
        `SELECT m.role FROM group_memberships m JOIN groups g ON g.id = m.group_id
          WHERE g.name = $1 AND m.user_id = $2`,
        [groupName, userId],
      )
    )[0]?.role;
  /** Members as listed: by when they were added, those added together by id. */
  const byId = <T extends { value: string }>(members: T[] | undefined): T[] | undefined =>
    members && [...members].sort((a, b) => a.value.localeCompare(b.value));
  const asMember = (member: Member) => ({
    value: member.id,
    display: member.name,
    $ref: `${base}/Users/${member.id}`,
    type: 'User',
  });

  beforeAll(async () => {
    idp = await TestProvider.start();
    const env = oidcEnv(idp, {
      TROVE_OIDC_SHARED_GROUP: SHARED_GROUP,
      TROVE_OIDC_ROLE_MAPPING: ROLE_MAPPING,
      TROVE_SCIM_TOKEN: SCIM_TOKEN,
    });
    trove = await createTestApp(env);
    second = await createTestApp(env, { database: trove.database, dataDir: trove.config.dataDir });
    idp.registerClient([callbackUrl(trove), callbackUrl(second)]);
    base = `${trove.baseUrl}/scim/v2`;
    send = scimClient(trove, SCIM_TOKEN);
    for (const given of ['Ada', 'Grace', 'Linus']) {
      const sub = `sub-${randomBytes(6).toString('hex')}`;
      const email = uniqueEmail(given.toLowerCase());
      idp.addAccount(sub, { email, email_verified: true, name: given, groups: ['Staff'] });
      const created = await send('post', '/Users', {
        schemas: [USER_SCHEMA],
        userName: email,
        name: { givenName: given, familyName: 'Example' },
        displayName: given,
        emails: [{ value: email, primary: true }],
      }).expect(201);
      people.push({ id: json<{ id: string }>(created).id, sub, email, name: given });
    }
  });
  afterAll(async () => {
    await second?.close();
    await trove?.close();
    await idp?.close();
  });

  describe('the Group resource', () => {
    let team: ScimGroup;

    it('creates a group with its members and answers it whole, 201 with Location', async () => {
      const [ada] = people;
      const created = await send('post', '/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: 'Auditors',
        externalId: 'grp-auditors',
        members: [{ value: ada.id, display: 'ignored' }],
      }).expect(201);
      expect(created.headers['content-type']).toBe(SCIM_TYPE);
      team = json<ScimGroup>(created);
      expect(team).toEqual({
        schemas: [GROUP_SCHEMA],
        id: team.id,
        externalId: 'grp-auditors',
        displayName: 'Auditors',
        members: [asMember(ada)],
        meta: {
          resourceType: 'Group',
          created: team.meta.created,
          lastModified: team.meta.lastModified,
          location: `${base}/Groups/${team.id}`,
        },
      });
      expect(created.headers.location).toBe(`${base}/Groups/${team.id}`);
      expect(json(await send('get', `/Groups/${team.id}`).expect(200))).toEqual(team);
    });

    it('finds groups by displayName (any case), externalId and members.value', async () => {
      const [ada, grace] = people;
      const listed = (filter: string, extra = '') =>
        send('get', `/Groups?filter=${encodeURIComponent(filter)}${extra}`).expect(200);
      expect(json(await listed('displayName eq "AUDITORS"'))).toEqual({
        schemas: [LIST_SCHEMA],
        totalResults: 1,
        startIndex: 1,
        itemsPerPage: 1,
        Resources: [team],
      });
      expect(
        json(await listed('externalId eq "grp-auditors"', '&excludedAttributes=members')),
      ).toEqual({
        schemas: [LIST_SCHEMA],
        totalResults: 1,
        startIndex: 1,
        itemsPerPage: 1,
        Resources: [{ ...team, members: undefined }].map(({ members: _, ...rest }) => rest),
      });
      expect(
        json(await listed(`members[value eq "${ada.id}"]`, '&attributes=displayName')),
      ).toEqual({
        schemas: [LIST_SCHEMA],
        totalResults: 1,
        startIndex: 1,
        itemsPerPage: 1,
        Resources: [{ schemas: [GROUP_SCHEMA], id: team.id, displayName: 'Auditors' }],
      });
      expect(json(await listed(`members.value eq "${grace.id}"`))).toMatchObject({
        totalResults: 0,
        Resources: [],
      });
      const searched = await send('post', '/Groups/.search', {
        schemas: [SEARCH_SCHEMA],
        filter: 'displayName sw "aud"',
        attributes: ['displayName'],
      }).expect(200);
      expect(json(searched)).toMatchObject({
        totalResults: 1,
        Resources: [{ schemas: [GROUP_SCHEMA], id: team.id, displayName: 'Auditors' }],
      });
      const bad = await send('get', `/Groups?filter=${encodeURIComponent('title eq "x"')}`);
      expect([bad.status, json(bad)]).toEqual([
        400,
        scimError(400, "filtering on 'title' is not supported", 'invalidFilter'),
      ]);
    });

    it('refuses a bad group with a SCIM error and writes nothing', async () => {
      const groups = await count('scim_groups');
      const memberships = await count('scim_group_members');
      const refused: [unknown, number, string, string][] = [
        [{ schemas: [GROUP_SCHEMA] }, 400, 'invalidValue', 'displayName'],
        [
          { schemas: [GROUP_SCHEMA], displayName: 'auditors' },
          409,
          'uniqueness',
          "displayName 'auditors' is already in use",
        ],
        [
          { schemas: [GROUP_SCHEMA], displayName: 'Ghosts', members: [{ value: 'nobody' }] },
          400,
          'invalidValue',
          'members must be users provisioned here; no user nobody',
        ],
        [
          {
            schemas: [GROUP_SCHEMA],
            displayName: 'Ghosts',
            members: [{ value: '7d1c0f4a-2b3c-4d5e-8f90-a1b2c3d4e5f6' }],
          },
          400,
          'invalidValue',
          'members must be users provisioned here; no user 7d1c0f4a-2b3c-4d5e-8f90-a1b2c3d4e5f6',
        ],
        [
          {
            schemas: [GROUP_SCHEMA],
            displayName: 'Nested',
            members: [{ value: team.id, type: 'Group' }],
          },
          400,
          'invalidValue',
          'groups within groups are not supported',
        ],
      ];
      for (const [body, status, scimType, detail] of refused) {
        const response = await send('post', '/Groups', body);
        expect(response.status, response.text).toBe(status);
        expect(json<{ scimType: string; detail: string }>(response)).toMatchObject({ scimType });
        expect(json<{ detail: string }>(response).detail).toContain(detail);
      }
      expect([await count('scim_groups'), await count('scim_group_members')]).toEqual([
        groups,
        memberships,
      ]);
    });

    it('changes members and name with PATCH in the forms providers send', async () => {
      const [ada, grace, linus] = people;
      const patched = async (...operations: unknown[]) =>
        json<ScimGroup & { externalId?: string }>(
          await send('patch', `/Groups/${team.id}`, patchOp(...operations)).expect(200),
        );
      // Entra ID: capitalised ops, a list of values without display names.
      let group = await patched({
        op: 'Add',
        path: 'members',
        value: [{ value: grace.id }, { value: linus.id }],
      });
      expect(group.members?.[0]).toEqual(asMember(ada));
      expect(byId(group.members)).toEqual(byId([asMember(ada), asMember(grace), asMember(linus)]));
      group = await patched({ op: 'Remove', path: 'members', value: [{ value: ada.id }] });
      expect(byId(group.members)).toEqual(byId([asMember(grace), asMember(linus)]));
      // Okta: a value filter in the path, and a rename carrying the group's id.
      group = await patched({ op: 'remove', path: `members[value eq "${linus.id}"]` });
      expect(group.members).toEqual([asMember(grace)]);
      group = await patched({ op: 'replace', value: { id: team.id, displayName: 'Audit' } });
      expect(group.displayName).toBe('Audit');
      // Adding one already there changes nothing; replacing the members sets them.
      group = await patched({ op: 'add', path: 'members', value: [{ value: grace.id }] });
      expect(group.members).toEqual([asMember(grace)]);
      group = await patched({ op: 'replace', path: 'members', value: [{ value: ada.id }] });
      expect(group.members).toEqual([asMember(ada)]);
      group = await patched({ op: 'remove', path: 'externalId' });
      expect(group.externalId).toBeUndefined();
      group = await patched({ op: 'remove', path: 'members' });
      expect(group.members).toBeUndefined();
      const unknownMember = await send(
        'patch',
        `/Groups/${team.id}`,
        patchOp({ op: 'add', path: 'members', value: [{ value: 'x' }] }),
      );
      expect(unknownMember.status).toBe(400);
      expect(json(await send('get', `/Groups/${team.id}`).expect(200))).toMatchObject({
        displayName: 'Audit',
      });
    });

    it('replaces a group with PUT and deletes it with 204, after which it is not found', async () => {
      const [ada, grace] = people;
      const replaced = json<ScimGroup & { externalId?: string }>(
        await send('put', `/Groups/${team.id}`, {
          schemas: [GROUP_SCHEMA],
          displayName: 'Auditors',
          members: [{ value: grace.id }, { value: ada.id }],
        }).expect(200),
      );
      expect(replaced.displayName).toBe('Auditors');
      expect(byId(replaced.members)).toEqual(byId([asMember(ada), asMember(grace)]));
      await send('delete', `/Groups/${team.id}`).expect(204);
      const gone = await send('get', `/Groups/${team.id}`);
      expect([gone.status, json(gone)]).toEqual([
        404,
        scimError(404, `Resource ${team.id} not found`),
      ]);
      expect(await count('scim_group_members')).toBe(0);
    });

    it('asks for the SCIM token on every group route, and answers 405 for a method not served', async () => {
      for (const [method, path] of [
        ['get', '/Groups'],
        ['post', '/Groups'],
        ['get', `/Groups/${people[0].id}`],
        ['patch', `/Groups/${people[0].id}`],
        ['delete', `/Groups/${people[0].id}`],
      ] as const) {
        const none = await trove.http[method](`/scim/v2${path}`);
        expect(none.status).toBe(401);
        const wrong = await trove.http[method](`/scim/v2${path}`).set('Authorization', 'Bearer x');
        expect([wrong.status, json(wrong)]).toEqual([
          401,
          scimError(401, 'the SCIM bearer token is not valid'),
        ]);
      }
      const notServed = await send('delete', '/Groups');
      expect([notServed.status, notServed.headers.allow]).toEqual([405, 'GET, POST']);
    });
  });

  describe('what a pushed group grants', () => {
    const signIn = async (app: TestApp, member: Member): Promise<string> => {
      const browser = new Browser();
      const { callback } = await signInWithOidc(browser, app, idp, member.sub);
      expect(callback.location).toBe(`${app.baseUrl}/home`);
      return `Bearer ${sessionToken(browser, app)}`;
    };
    const seesWarehouse = async (app: TestApp, authorization: string): Promise<number> => {
      const id = await warehouseId();
      const response = await app.http
        .get('/api/v1/groups')
        .set('Authorization', authorization)
        .set('X-Tenant', id ?? '00000000-0000-4000-8000-000000000000');
      return response.status;
    };

    it('gives a member of a mapped group membership and role, and takes them away at once on every instance', async () => {
      const [ada, grace] = people;
      const onFirst = await signIn(trove, ada);
      const onSecond = await signIn(second, ada);
      expect(await warehouseId()).toBeUndefined();

      const pushed = json<ScimGroup>(
        await send('post', '/Groups', {
          schemas: [GROUP_SCHEMA],
          displayName: 'Warehouse Team',
          members: [{ value: ada.id }],
        }).expect(201),
      );
      // The Trove group is made on first use; ada gets exactly the mapped role.
      expect(await roleIn('Warehouse', ada.id)).toBe('user');
      expect(await seesWarehouse(trove, onFirst)).toBe(200);
      expect(await seesWarehouse(second, onSecond)).toBe(200);
      const warehouse = (await warehouseId())!;
      const made = await trove.http
        .post('/api/v1/entities')
        .set('Authorization', onFirst)
        .set('X-Tenant', warehouse)
        .send({ name: 'Pallet jack' })
        .expect(201);

      // Signing in again with a token that lists only "Staff" keeps what SCIM pushed.
      await signIn(trove, ada);
      expect(await roleIn('Warehouse', ada.id)).toBe('user');

      // Leads are owners; an unmapped group is kept and grants nothing.
      const leads = json<ScimGroup>(
        await send('post', '/Groups', {
          schemas: [GROUP_SCHEMA],
          displayName: 'Warehouse Leads',
          members: [{ value: grace.id }, { value: ada.id }],
        }).expect(201),
      );
      expect([await roleIn('Warehouse', grace.id), await roleIn('Warehouse', ada.id)]).toEqual([
        'owner',
        'owner',
      ]);
      const memberships = await count('group_memberships');
      await send('post', '/Groups', {
        schemas: [GROUP_SCHEMA],
        displayName: 'Bowling league',
        members: [{ value: ada.id }],
      }).expect(201);
      expect(await count('group_memberships')).toBe(memberships);

      // Out of the leads, ada is back to what the team grants.
      await send(
        'patch',
        `/Groups/${leads.id}`,
        patchOp({ op: 'remove', path: `members[value eq "${ada.id}"]` }),
      ).expect(200);
      expect(await roleIn('Warehouse', ada.id)).toBe('user');

      // Out of the team, ada loses the Trove group on both instances at once.
      await send(
        'patch',
        `/Groups/${pushed.id}`,
        patchOp({ op: 'Remove', path: 'members', value: [{ value: ada.id }] }),
      ).expect(200);
      expect(await roleIn('Warehouse', ada.id)).toBeUndefined();
      expect(await seesWarehouse(trove, onFirst)).toBe(403);
      await vi.waitFor(async () => expect(await seesWarehouse(second, onSecond)).toBe(403), {
        timeout: 1000,
        interval: 20,
      });
      // What ada did stays, attributed to ada.
      const history = await trove.query<{ user_id: string }>(
        `SELECT actor_id AS user_id FROM entity_history WHERE entity_id = $1`,
        [made.body.id],
      );
      expect(history.map((row) => row.user_id)).toContain(ada.id);
      // Ada is still in the shared group (which she owns: she was the first one in).
      expect(await roleIn(SHARED_GROUP, ada.id)).toBe('owner');

      // Deleting the leads' group ends what it granted grace.
      await send('delete', `/Groups/${leads.id}`).expect(204);
      expect(await roleIn('Warehouse', grace.id)).toBeUndefined();
    });

    it('maps a pushed group to a role in the shared group, and back to the default when left', async () => {
      const [, , linus] = people;
      const admins = json<ScimGroup>(
        await send('post', '/Groups', {
          schemas: [GROUP_SCHEMA],
          displayName: 'Acme Admins',
          members: [{ value: linus.id }],
        }).expect(201),
      );
      expect(await roleIn(SHARED_GROUP, linus.id)).toBe('owner');
      await send('put', `/Groups/${admins.id}`, {
        schemas: [GROUP_SCHEMA],
        displayName: 'Acme Admins',
        members: [],
      }).expect(200);
      expect(await roleIn(SHARED_GROUP, linus.id)).toBe('user');
    });
  });
});
