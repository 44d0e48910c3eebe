import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  BAD_TENANT,
  expectUnauthenticated,
  GROUP_KEYS,
  groupShape,
  NO_ACCESS,
  readGroup,
} from './group-helpers.js';

describe('GET /api/v1/groups', () => {
  let owner: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  describe('success', () => {
    it('answers 200 with the caller’s default group', async () => {
      const response = await as(app.trove, owner, 'get', '/api/v1/groups').expect(200);

      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual(groupShape(owner.groupId, "Ada's Home"));
      expect(Object.keys(response.body).sort()).toEqual(GROUP_KEYS);
      const body = response.body as { createdAt: string; updatedAt: string };
      expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
      expect(new Date(body.updatedAt).toISOString()).toBe(body.updatedAt);
      expect(Date.parse(body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(body.createdAt));
    });

    it('answers the same group to members and viewers, who may read it', async () => {
      const member = await signUpMember(app.trove, owner, 'user');
      const viewer = await signUpMember(app.trove, owner, 'viewer');
      const expected = await readGroup(app.trove, owner);

      expect(await readGroup(app.trove, member)).toEqual(expected);
      expect(await readGroup(app.trove, viewer)).toEqual(expected);
    });

    it('answers the group named by X-Tenant or ?tenant= when the caller is a member', async () => {
      const response = await as(app.trove, owner, 'get', '/api/v1/groups', owner.groupId).expect(
        200,
      );
      expect(response.body).toEqual(groupShape(owner.groupId, "Ada's Home"));

      const byQuery = await as(app.trove, owner, 'get', `/api/v1/groups?tenant=${owner.groupId}`);
      expect(byQuery.status).toBe(200);
      expect(byQuery.body).toEqual(groupShape(owner.groupId, "Ada's Home"));
    });
    it('names the home group of a registrant with a very long name within 255 characters', async () => {
      const name = 'N'.repeat(250);
      const longNamed = await signUp(app.trove, { name });

      const group = await readGroup(app.trove, longNamed);

      expect(group).toEqual(groupShape(longNamed.groupId, `${'N'.repeat(248)}'s Home`));
      expect(group.name).toHaveLength(255);
    });
  });

  describe('bad input', () => {
    it('answers 400 for a tenant that is not a UUID, in the header or the query', async () => {
      const header = await as(app.trove, owner, 'get', '/api/v1/groups', 'not-a-uuid');
      expect(header.status).toBe(400);
      expect(header.body).toEqual(BAD_TENANT);

      const query = await as(app.trove, owner, 'get', '/api/v1/groups?tenant=12345');
      expect(query.status).toBe(400);
      expect(query.body).toEqual(BAD_TENANT);

      expect(await readGroup(app.trove, owner)).toEqual(groupShape(owner.groupId, "Ada's Home"));
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', '/api/v1/groups');
    });
  });

  describe('another group', () => {
    it('answers 403 to a user who names a group they do not belong to', async () => {
      const header = await as(app.trove, outsider, 'get', '/api/v1/groups', owner.groupId);
      expect(header.status).toBe(403);
      expect(header.body).toEqual(NO_ACCESS);

      const query = await as(app.trove, outsider, 'get', `/api/v1/groups?tenant=${owner.groupId}`);
      expect(query.status).toBe(403);
      expect(query.body).toEqual(NO_ACCESS);
    });

    it('gives every user their own group only', async () => {
      expect(await readGroup(app.trove, outsider)).toEqual(
        groupShape(outsider.groupId, "Eve's Home"),
      );
      expect(outsider.groupId).not.toBe(owner.groupId);
    });
  });
});
