import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  BAD_TENANT,
  createGroup,
  expectUnauthenticated,
  GROUP_KEYS,
  groupShape,
  invite,
  NO_ACCESS,
  readAllGroups,
} from './group-helpers.js';

describe('GET /api/v1/groups/all', () => {
  let owner: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  describe('success', () => {
    it('answers 200 with every group of the caller, sorted by name', async () => {
      const zoo = await createGroup(app.trove, owner, 'Zoo');
      const attic = await createGroup(app.trove, owner, 'Attic');

      const response = await as(app.trove, owner, 'get', '/api/v1/groups/all').expect(200);

      expect(response.body).toEqual([
        groupShape(owner.groupId, "Ada's Home"),
        groupShape(attic.id, 'Attic'),
        groupShape(zoo.id, 'Zoo'),
      ]);
      for (const group of response.body as object[]) {
        expect(Object.keys(group).sort()).toEqual(GROUP_KEYS);
      }
    });

    it('lists the groups a viewer or member belongs to, with their own', async () => {
      const viewer = await signUpMember(app.trove, owner, 'viewer');
      const own = await createGroup(app.trove, viewer, 'Viewer’s own');

      expect(await readAllGroups(app.trove, viewer)).toEqual([
        groupShape(owner.groupId, "Ada's Home"),
        groupShape(own.id, 'Viewer’s own'),
      ]);
    });
  });

  describe('bad input', () => {
    it('answers 400 for a tenant that is not a UUID', async () => {
      const response = await as(app.trove, owner, 'get', '/api/v1/groups/all', 'nope');
      expect(response.status).toBe(400);
      expect(response.body).toEqual(BAD_TENANT);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', '/api/v1/groups/all');
    });
  });

  describe('another group', () => {
    it('never lists groups the caller does not belong to', async () => {
      expect(await readAllGroups(app.trove, outsider)).toEqual([
        groupShape(outsider.groupId, "Eve's Home"),
      ]);

      const response = await as(app.trove, outsider, 'get', '/api/v1/groups/all', owner.groupId);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
    });

    it('lists a group once the caller has joined it', async () => {
      const joiner = await signUp(app.trove, { name: 'Jo' });
      const invitation = await invite(app.trove, owner, { uses: 1 });
      await as(app.trove, joiner, 'post', `/api/v1/groups/invitations/${invitation.token}`).expect(
        200,
      );

      const ids = (await readAllGroups(app.trove, joiner)).map((group) => group.id).sort();
      expect(ids).toEqual([joiner.groupId, owner.groupId].sort());
    });
  });
});
