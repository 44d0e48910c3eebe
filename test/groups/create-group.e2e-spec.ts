import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  expectUnauthenticated,
  GROUP_KEYS,
  groupShape,
  memberShape,
  NO_ACCESS,
  readAllGroups,
  readDefaultGroupId,
  readGroup,
  readMembers,
  type GroupBody,
} from './group-helpers.js';

describe('POST /api/v1/groups', () => {
  let owner: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const create = (session: Session, body: object, tenant?: string) =>
    as(app.trove, session, 'post', '/api/v1/groups', tenant).send(body);

  describe('success', () => {
    it('answers 201 with the new group, owned by the caller, leaving the default group alone', async () => {
      const response = await create(owner, { name: 'Lab' }).expect(201);

      expect(response.body).toEqual(groupShape(expect.any(String) as string, 'Lab'));
      expect(Object.keys(response.body).sort()).toEqual(GROUP_KEYS);
      const group = response.body as GroupBody;
      expect(group.id).not.toBe(owner.groupId);
      expect(new Date(group.createdAt).toISOString()).toBe(group.createdAt);

      expect(await readGroup(app.trove, owner, group.id)).toEqual(group);
      expect(await readMembers(app.trove, owner, group.id)).toEqual([memberShape(owner, 'owner')]);
      expect(await readDefaultGroupId(app.trove, owner)).toBe(owner.groupId);
      expect(await readGroup(app.trove, owner)).toEqual(groupShape(owner.groupId, "Ada's Home"));
      expect((await readAllGroups(app.trove, owner)).map((g) => g.id).sort()).toEqual(
        [owner.groupId, group.id].sort(),
      );
    });

    it('lets the owner manage the new group, which starts without invitations', async () => {
      const group = (await create(owner, { name: 'Garage' }).expect(201)).body as GroupBody;

      const renamed = await as(app.trove, owner, 'put', '/api/v1/groups', group.id)
        .send({ name: 'Big Garage' })
        .expect(200);
      expect(renamed.body).toEqual(groupShape(group.id, 'Big Garage'));
      const invitations = await as(app.trove, owner, 'get', '/api/v1/groups/invitations', group.id);
      expect(invitations.status).toBe(200);
      expect(invitations.body).toEqual([]);
    });

    it('lets a viewer of one group create a group of their own, which they own', async () => {
      const viewer = await signUpMember(app.trove, owner, 'viewer');

      const response = await create(viewer, { name: 'Viewer’s own' }).expect(201);

      const group = response.body as GroupBody;
      expect(group).toEqual(groupShape(group.id, 'Viewer’s own'));
      expect(await readMembers(app.trove, viewer, group.id)).toEqual([
        memberShape(viewer, 'owner'),
      ]);
      expect(await readMembers(app.trove, owner)).toContainEqual(memberShape(viewer, 'viewer'));
      expect(await readDefaultGroupId(app.trove, viewer)).toBe(owner.groupId);
    });
  });

  describe('bad input', () => {
    it('answers 422 for a missing, empty, too long or non-string name and creates nothing', async () => {
      const before = await readAllGroups(app.trove, owner);

      for (const body of [
        {},
        { name: '' },
        { name: 'x'.repeat(256) },
        { name: 7 },
        { name: null },
      ]) {
        const response = await create(owner, body);
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          error: 'Validation Error',
          fields: { name: expect.stringContaining('name must be') },
        });
      }
      const missing = await create(owner, {});
      expect(missing.body).toEqual({
        error: 'Validation Error',
        fields: {
          name: 'name must be longer than or equal to 1 characters; name must be a string',
        },
      });
      expect(await readAllGroups(app.trove, owner)).toEqual(before);
    });

    it('ignores an id in the body: the new group gets its own id', async () => {
      const response = await create(owner, {
        name: 'Clone',
        id: outsider.groupId,
        currency: 'EUR',
      }).expect(201);

      const group = response.body as GroupBody;
      expect(group).toEqual(groupShape(group.id, 'Clone', 'USD'));
      expect(group.id).not.toBe(outsider.groupId);
      expect(await readGroup(app.trove, outsider)).toEqual(
        groupShape(outsider.groupId, "Eve's Home"),
      );
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and creates nothing', async () => {
      const before = await readAllGroups(app.trove, owner);
      await expectUnauthenticated(app.trove, 'post', '/api/v1/groups', { name: 'Sneaky' });
      expect(await readAllGroups(app.trove, owner)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('keeps a new group invisible to users of other groups', async () => {
      const group = (await create(owner, { name: 'Private' }).expect(201)).body as GroupBody;

      const read = await as(app.trove, outsider, 'get', '/api/v1/groups', group.id);
      expect(read.status).toBe(403);
      expect(read.body).toEqual(NO_ACCESS);
      expect((await readAllGroups(app.trove, outsider)).map((g) => g.id)).toEqual([
        outsider.groupId,
      ]);
    });

    it('answers 403 when the caller names a group they do not belong to, and creates nothing', async () => {
      const before = await readAllGroups(app.trove, outsider);

      const response = await create(outsider, { name: 'Via tenant' }, owner.groupId);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
      expect(await readAllGroups(app.trove, outsider)).toEqual(before);
    });
  });
});
