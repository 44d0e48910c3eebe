import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createGroup,
  expectUnauthenticated,
  groupShape,
  memberShape,
  NO_ACCESS,
  NO_GROUP,
  OWNER_ONLY,
  readAllGroups,
  readDefaultGroupId,
  readGroup,
  readMembers,
  UNKNOWN_ID,
} from './group-helpers.js';

describe('DELETE /api/v1/groups/members/{user_id}', () => {
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const removeMember = (session: Session, userId: string, tenant?: string) =>
    as(app.trove, session, 'delete', `/api/v1/groups/members/${userId}`, tenant);

  describe('success', () => {
    it('answers 204 and the removed member loses access to the group', async () => {
      const owner = await signUp(app.trove, { name: 'Ada' });
      const member = await signUpMember(app.trove, owner, 'user');
      const viewer = await signUpMember(app.trove, owner, 'viewer');

      const response = await removeMember(owner, member.id).expect(204);

      expect(response.text).toBe('');
      expect(await readMembers(app.trove, owner)).toEqual([
        memberShape(owner, 'owner'),
        memberShape(viewer, 'viewer'),
      ]);
      const named = await as(app.trove, member, 'get', '/api/v1/groups', owner.groupId);
      expect(named.status).toBe(403);
      expect(named.body).toEqual(NO_ACCESS);
      const byDefault = await as(app.trove, member, 'get', '/api/v1/groups');
      expect(byDefault.status).toBe(403);
      expect(byDefault.body).toEqual(NO_GROUP);
      expect(await readDefaultGroupId(app.trove, member)).toBeNull();
      expect(await readAllGroups(app.trove, member)).toEqual([]);
    });

    it('moves the removed member’s default group to another of their groups', async () => {
      const owner = await signUp(app.trove, { name: 'Bob' });
      const member = await signUpMember(app.trove, owner, 'user');
      const own = await createGroup(app.trove, member, 'Member’s own');
      expect(await readDefaultGroupId(app.trove, member)).toBe(owner.groupId);

      await removeMember(owner, member.id).expect(204);

      expect(await readDefaultGroupId(app.trove, member)).toBe(own.id);
      expect(await readGroup(app.trove, member)).toEqual(groupShape(own.id, 'Member’s own'));
    });

    it('removes a viewer and another owner too', async () => {
      const owner = await signUp(app.trove, { name: 'Cleo' });
      const viewer = await signUpMember(app.trove, owner, 'viewer');
      const second = await signUpMember(app.trove, owner, 'user');
      await as(app.trove, owner, 'put', `/api/v1/groups/members/${second.id}`)
        .send({ role: 'owner' })
        .expect(200);

      await removeMember(owner, viewer.id).expect(204);
      await removeMember(second, owner.id).expect(204);

      expect(await readMembers(app.trove, second)).toEqual([memberShape(second, 'owner')]);
    });
  });

  describe('bad input', () => {
    it('answers 400 when the owner removes themselves, even as the last member', async () => {
      const owner = await signUp(app.trove, { name: 'Dan' });

      const alone = await removeMember(owner, owner.id);
      expect(alone.status).toBe(400);
      expect(alone.body).toEqual({ error: 'you cannot remove yourself from the group' });

      const member = await signUpMember(app.trove, owner, 'user');
      const withOthers = await removeMember(owner, owner.id);
      expect(withOthers.status).toBe(400);
      expect(withOthers.body).toEqual({ error: 'you cannot remove yourself from the group' });

      expect(await readMembers(app.trove, owner)).toEqual([
        memberShape(owner, 'owner'),
        memberShape(member, 'user'),
      ]);
    });

    it('answers 400 for an id that is not a UUID and 404 for a user who is not a member', async () => {
      const owner = await signUp(app.trove, { name: 'Fay' });
      const member = await signUpMember(app.trove, owner, 'user');
      const before = await readMembers(app.trove, owner);

      const malformed = await removeMember(owner, 'abc');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: user_id' });

      const unknown = await removeMember(owner, UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `user ${UNKNOWN_ID} is not a member of this group` });

      await removeMember(owner, member.id).expect(204);
      const again = await removeMember(owner, member.id);
      expect(again.status).toBe(404);
      expect(before).toHaveLength(2);
      expect(await readMembers(app.trove, owner)).toEqual([memberShape(owner, 'owner')]);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      const owner = await signUp(app.trove, { name: 'Gus' });
      const member = await signUpMember(app.trove, owner, 'user');

      await expectUnauthenticated(app.trove, 'delete', `/api/v1/groups/members/${member.id}`);

      expect(await readMembers(app.trove, owner)).toContainEqual(memberShape(member, 'user'));
    });
  });

  describe('roles', () => {
    it('answers 403 to a member and to a viewer, and removes no one', async () => {
      const owner = await signUp(app.trove, { name: 'Hal' });
      const member = await signUpMember(app.trove, owner, 'user');
      const viewer = await signUpMember(app.trove, owner, 'viewer');
      const before = await readMembers(app.trove, owner);

      for (const [caller, target] of [
        [member, viewer],
        [viewer, member],
        [member, owner],
        [viewer, owner],
      ] as const) {
        const response = await removeMember(caller, target.id);
        expect(response.status).toBe(403);
        expect(response.body).toEqual(OWNER_ONLY);
      }
      expect(await readMembers(app.trove, owner)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for a member of another group, who stays', async () => {
      const owner = await signUp(app.trove, { name: 'Ivy' });
      const foreignMember = await signUpMember(app.trove, outsider, 'user');

      const response = await removeMember(owner, foreignMember.id);

      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        error: `user ${foreignMember.id} is not a member of this group`,
      });
      expect(await readMembers(app.trove, outsider)).toContainEqual(
        memberShape(foreignMember, 'user'),
      );
      expect(await readGroup(app.trove, foreignMember)).toMatchObject({ id: outsider.groupId });
    });

    it('answers 403 to a user of another group who names this group', async () => {
      const owner = await signUp(app.trove, { name: 'Jay' });
      const member = await signUpMember(app.trove, owner, 'user');

      const response = await removeMember(outsider, member.id, owner.groupId);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
      expect(await readMembers(app.trove, owner)).toContainEqual(memberShape(member, 'user'));
    });
  });
});
