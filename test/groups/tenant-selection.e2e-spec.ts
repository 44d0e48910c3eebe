import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
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
  let ada: Session;
  let eve: Session;
  let lab: GroupBody;

  const app = useTestApp();
  beforeAll(async () => {
    ada = await signUp(app.trove, { name: 'Ada' });
    eve = await signUp(app.trove, { name: 'Eve' });
    lab = await createGroup(app.trove, ada, 'Lab');
    const invitation = await invite(app.trove, eve, { uses: 1, role: 'viewer' });
    await as(app.trove, ada, 'post', `/api/v1/groups/invitations/${invitation.token}`).expect(200);
  });

  describe('success', () => {
    it('uses the default group when no tenant is named', async () => {
      expect(await readGroup(app.trove, ada)).toEqual(groupShape(ada.groupId, "Ada's Home"));
    });

    it('uses ?tenant= when there is no X-Tenant header, and the header over the query', async () => {
      const byQuery = await as(app.trove, ada, 'get', `/api/v1/groups?tenant=${lab.id}`).expect(
        200,
      );
      expect(byQuery.body).toEqual(groupShape(lab.id, 'Lab'));

      const both = await as(app.trove, ada, 'get', `/api/v1/groups?tenant=${lab.id}`, eve.groupId);
      expect(both.status).toBe(200);
      expect(both.body).toEqual(groupShape(eve.groupId, "Eve's Home"));

      const emptyHeader = await app.trove.http
        .get(`/api/v1/groups?tenant=${lab.id}`)
        .set('Authorization', ada.authorization)
        .set('X-Tenant', '')
        .expect(200);
      expect(emptyHeader.body).toEqual(groupShape(lab.id, 'Lab'));
    });

    it('accepts a tenant UUID written in upper case', async () => {
      const response = await as(app.trove, ada, 'get', '/api/v1/groups', lab.id.toUpperCase());
      expect(response.status).toBe(200);
      expect(response.body).toEqual(
        groupShape(lab.id, (await readGroup(app.trove, ada, lab.id)).name),
      );
    });

    it('applies the caller’s role in the named group', async () => {
      expect(await readMembers(app.trove, ada, eve.groupId)).toEqual([
        memberShape(ada, 'viewer'),
        memberShape(eve, 'owner'),
      ]);

      const asViewer = await as(app.trove, ada, 'put', '/api/v1/groups', eve.groupId).send({
        name: 'Not Eve’s',
      });
      expect(asViewer.status).toBe(403);
      expect(asViewer.body).toEqual(OWNER_ONLY);
      expect(await readGroup(app.trove, eve)).toEqual(groupShape(eve.groupId, "Eve's Home"));

      const asOwner = await as(app.trove, ada, 'put', `/api/v1/groups?tenant=${lab.id}`).send({
        name: 'Laboratory',
      });
      expect(asOwner.status).toBe(200);
      expect(asOwner.body).toEqual(groupShape(lab.id, 'Laboratory'));
      expect(await readGroup(app.trove, ada)).toEqual(groupShape(ada.groupId, "Ada's Home"));
    });
  });

  describe('bad input', () => {
    it('answers 400 for a tenant that is not a UUID, in the header or the query', async () => {
      for (const tenant of ['abc', `${lab.id}x`, '1']) {
        const header = await as(app.trove, ada, 'get', '/api/v1/groups', tenant);
        expect(header.status).toBe(400);
        expect(header.body).toEqual(BAD_TENANT);
      }
      const query = await as(app.trove, ada, 'get', '/api/v1/groups?tenant=abc');
      expect(query.status).toBe(400);
      expect(query.body).toEqual(BAD_TENANT);

      const repeated = await as(
        app.trove,
        ada,
        'get',
        `/api/v1/groups?tenant=${lab.id}&tenant=${lab.id}`,
      );
      expect(repeated.status).toBe(400);
      expect(repeated.body).toEqual(BAD_TENANT);
    });

    it('refuses a bad tenant on a write before writing anything', async () => {
      const response = await as(app.trove, ada, 'put', '/api/v1/groups', 'not-a-uuid').send({
        name: 'Changed',
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(BAD_TENANT);
      expect(await readGroup(app.trove, ada)).toEqual(groupShape(ada.groupId, "Ada's Home"));
    });
  });

  describe('authentication', () => {
    it('answers 401 before looking at the tenant', async () => {
      const missing = await app.trove.http.get('/api/v1/groups').set('X-Tenant', ada.groupId);
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ error: 'authorization header or query is required' });
      await expectUnauthenticated(app.trove, 'get', `/api/v1/groups?tenant=${ada.groupId}`);
    });
  });

  describe('another group', () => {
    it('answers 403 for a group the caller does not belong to, by header or by query', async () => {
      const header = await as(app.trove, eve, 'get', '/api/v1/groups', lab.id);
      expect(header.status).toBe(403);
      expect(header.body).toEqual(NO_ACCESS);

      const query = await as(app.trove, eve, 'get', `/api/v1/groups?tenant=${ada.groupId}`);
      expect(query.status).toBe(403);
      expect(query.body).toEqual(NO_ACCESS);

      const unknown = await as(
        app.trove,
        eve,
        'get',
        '/api/v1/groups',
        '00000000-0000-4000-8000-000000000000',
      );
      expect(unknown.status).toBe(403);
      expect(unknown.body).toEqual(NO_ACCESS);
    });

    it('does not fall back to the default group for a foreign tenant on a write', async () => {
      const response = await as(app.trove, eve, 'put', '/api/v1/groups', lab.id).send({
        name: 'Eve’s now',
      });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
      expect(await readGroup(app.trove, eve)).toEqual(groupShape(eve.groupId, "Eve's Home"));
      expect(await readGroup(app.trove, ada, lab.id)).toMatchObject({ id: lab.id });
      expect((await readGroup(app.trove, ada, lab.id)).name).not.toBe('Eve’s now');
    });
  });
});
