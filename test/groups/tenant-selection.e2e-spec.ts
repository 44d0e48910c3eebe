import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  as,
  BAD_TENANT,
  createGroup,
  expectUnauthenticated,
  groupShape,
  invite,
  memberShape,
  NO_ACCESS,
  OWNER_ONLY,
  readGroup,
  readMembers,
  type GroupBody,
} from './group-helpers.js';

/** X-Tenant, then ?tenant=, then the default group; the caller's role is the one in that group. */
describe('tenant selection on group routes', () => {
  let trove: TestApp;
  let ada: Session;
  let eve: Session;
  let lab: GroupBody;

  beforeAll(async () => {
    trove = await createTestApp();
    ada = await signUp(trove, { name: 'Ada' });
    eve = await signUp(trove, { name: 'Eve' });
    lab = await createGroup(trove, ada, 'Lab');
    const invitation = await invite(trove, eve, { uses: 1, role: 'viewer' });
    await as(trove, ada, 'post', `/api/v1/groups/invitations/${invitation.token}`).expect(200);
  });
  afterAll(() => trove.close());

  describe('success', () => {
    it('uses the default group when no tenant is named', async () => {
      expect(await readGroup(trove, ada)).toEqual(groupShape(ada.groupId, "Ada's Home"));
    });

    it('uses ?tenant= when there is no X-Tenant header, and the header over the query', async () => {
      const byQuery = await as(trove, ada, 'get', `/api/v1/groups?tenant=${lab.id}`).expect(200);
      expect(byQuery.body).toEqual(groupShape(lab.id, 'Lab'));

      const both = await as(trove, ada, 'get', `/api/v1/groups?tenant=${lab.id}`, eve.groupId);
      expect(both.status).toBe(200);
      expect(both.body).toEqual(groupShape(eve.groupId, "Eve's Home"));

      const emptyHeader = await trove.http
        .get(`/api/v1/groups?tenant=${lab.id}`)
        .set('Authorization', ada.authorization)
        .set('X-Tenant', '')
        .expect(200);
      expect(emptyHeader.body).toEqual(groupShape(lab.id, 'Lab'));
    });

    it('accepts a tenant UUID written in upper case', async () => {
      const response = await as(trove, ada, 'get', '/api/v1/groups', lab.id.toUpperCase());
      expect(response.status).toBe(200);
      expect(response.body).toEqual(groupShape(lab.id, (await readGroup(trove, ada, lab.id)).name));
    });

    it('applies the caller’s role in the named group', async () => {
      expect(await readMembers(trove, ada, eve.groupId)).toEqual([
        memberShape(ada, 'viewer'),
        memberShape(eve, 'owner'),
      ]);

      const asViewer = await as(trove, ada, 'put', '/api/v1/groups', eve.groupId).send({
        name: 'Not Eve’s',
      });
      expect(asViewer.status).toBe(403);
      expect(asViewer.body).toEqual(OWNER_ONLY);
      expect(await readGroup(trove, eve)).toEqual(groupShape(eve.groupId, "Eve's Home"));

      const asOwner = await as(trove, ada, 'put', `/api/v1/groups?tenant=${lab.id}`).send({
        name: 'Laboratory',
      });
      expect(asOwner.status).toBe(200);
      expect(asOwner.body).toEqual(groupShape(lab.id, 'Laboratory'));
      expect(await readGroup(trove, ada)).toEqual(groupShape(ada.groupId, "Ada's Home"));
    });
  });

  describe('bad input', () => {
    it('answers 400 for a tenant that is not a UUID, in the header or the query', async () => {
      for (const tenant of ['abc', `${lab.id}x`, '1']) {
        const header = await as(trove, ada, 'get', '/api/v1/groups', tenant);
        expect(header.status).toBe(400);
        expect(header.body).toEqual(BAD_TENANT);
      }
      const query = await as(trove, ada, 'get', '/api/v1/groups?tenant=abc');
      expect(query.status).toBe(400);
      expect(query.body).toEqual(BAD_TENANT);

      const repeated = await as(
        trove,
        ada,
        'get',
        `/api/v1/groups?tenant=${lab.id}&tenant=${lab.id}`,
      );
      expect(repeated.status).toBe(400);
      expect(repeated.body).toEqual(BAD_TENANT);
    });

    it('refuses a bad tenant on a write before writing anything', async () => {
      const response = await as(trove, ada, 'put', '/api/v1/groups', 'not-a-uuid').send({
        name: 'Changed',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(BAD_TENANT);
      expect(await readGroup(trove, ada)).toEqual(groupShape(ada.groupId, "Ada's Home"));
    });
  });

  describe('authentication', () => {
    it('answers 401 before looking at the tenant', async () => {
      const missing = await trove.http.get('/api/v1/groups').set('X-Tenant', ada.groupId);
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ error: 'authorization header or query is required' });
      await expectUnauthenticated(trove, 'get', `/api/v1/groups?tenant=${ada.groupId}`);
    });
  });

  describe('another group', () => {
    it('answers 403 for a group the caller does not belong to, by header or by query', async () => {
      const header = await as(trove, eve, 'get', '/api/v1/groups', lab.id);
      expect(header.status).toBe(403);
      expect(header.body).toEqual(NO_ACCESS);

      const query = await as(trove, eve, 'get', `/api/v1/groups?tenant=${ada.groupId}`);
      expect(query.status).toBe(403);
      expect(query.body).toEqual(NO_ACCESS);

      const unknown = await as(
        trove,
        eve,
        'get',
        '/api/v1/groups',
        '00000000-0000-4000-8000-000000000000',
      );
      expect(unknown.status).toBe(403);
      expect(unknown.body).toEqual(NO_ACCESS);
    });

    it('does not fall back to the default group for a foreign tenant on a write', async () => {
      const response = await as(trove, eve, 'put', '/api/v1/groups', lab.id).send({
        name: 'Eve’s now',
      });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
      expect(await readGroup(trove, eve)).toEqual(groupShape(eve.groupId, "Eve's Home"));
      expect(await readGroup(trove, ada, lab.id)).toMatchObject({ id: lab.id });
      expect((await readGroup(trove, ada, lab.id)).name).not.toBe('Eve’s now');
    });
  });
});
