import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  expectUnauthenticated,
  memberShape,
  NO_ACCESS,
  OWNER_ONLY,
  readGroup,
  readMembers,
  UNKNOWN_ID,
} from './group-helpers.js';

const LAST_OWNER = { error: 'a group needs at least one owner; promote another member first' };

describe('PUT /api/v1/groups/members/{user_id}', () => {
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const setRole = (session: Session, userId: string, body: object, tenant?: string) =>
    as(app.trove, session, 'put', `/api/v1/groups/members/${userId}`, tenant).send(body);

  const roleOf = async (reader: Session, session: Session): Promise<string | undefined> =>
    (await readMembers(app.trove, reader)).find((item) => item.id === session.id)?.role;

  describe('success', () => {
    it('answers 200 with the member and their new role, and the role takes effect', async () => {
      const owner = await signUp(app.trove, { name: 'Ada' });
      const member = await signUpMember(app.trove, owner, 'user');

      const response = await setRole(owner, member.id, { role: 'viewer' }).expect(200);

      expect(response.body).toEqual(memberShape(member, 'viewer'));
      expect(Object.keys(response.body).sort()).toEqual([
        'disabled',
        'email',
        'id',
        'name',
        'role',
      ]);
      expect(await readMembers(app.trove, owner)).toContainEqual(memberShape(member, 'viewer'));

      const write = await as(app.trove, member, 'post', '/api/v1/groups/invitations').send({
        uses: 1,
      });
      expect(write.status).toBe(403);
      expect(await readGroup(app.trove, member)).toMatchObject({ id: owner.groupId });
    });

    it('promotes a viewer to owner, who may then manage the group', async () => {
      const owner = await signUp(app.trove, { name: 'Bob' });
      const viewer = await signUpMember(app.trove, owner, 'viewer');

      const response = await setRole(owner, viewer.id, { role: 'owner' }).expect(200);

      expect(response.body).toEqual(memberShape(viewer, 'owner'));
      const renamed = await as(app.trove, viewer, 'put', '/api/v1/groups')
        .send({ name: 'Shared' })
        .expect(200);
      expect(renamed.body).toMatchObject({ id: owner.groupId, name: 'Shared' });
    });

    it('lets an owner step down when another owner remains', async () => {
      const owner = await signUp(app.trove, { name: 'Cleo' });
      const second = await signUpMember(app.trove, owner, 'user');
      await setRole(owner, second.id, { role: 'owner' }).expect(200);

      const response = await setRole(owner, owner.id, { role: 'user' }).expect(200);

      expect(response.body).toEqual(memberShape(owner, 'user'));
      expect(await roleOf(second, owner)).toBe('user');
      expect(await roleOf(second, second)).toBe('owner');
    });
  });

  describe('the last owner', () => {
    it('answers 409 when the only owner would be demoted, and changes nothing', async () => {
      const owner = await signUp(app.trove, { name: 'Dan' });
      await signUpMember(app.trove, owner, 'user');

      for (const role of ['user', 'viewer']) {
        const response = await setRole(owner, owner.id, { role });
        expect(response.status).toBe(409);
        expect(response.body).toEqual(LAST_OWNER);
      }
      expect(await roleOf(owner, owner)).toBe('owner');
    });

    it('keeps one owner when two owners demote each other at once', async () => {
      const first = await signUp(app.trove, { name: 'Fay' });
      const second = await signUpMember(app.trove, first, 'user');
      await setRole(first, second.id, { role: 'owner' }).expect(200);

      const responses = await Promise.all([
        setRole(first, second.id, { role: 'user' }),
        setRole(second, first.id, { role: 'user' }),
      ]);

      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409 || status === 403)).toHaveLength(1);
      const owners = (await readMembers(app.trove, first)).filter((item) => item.role === 'owner');
      expect(owners).toHaveLength(1);
    });
  });

  describe('bad input', () => {
    it('answers 422 for a missing or unknown role and changes nothing', async () => {
      const owner = await signUp(app.trove, { name: 'Gus' });
      const member = await signUpMember(app.trove, owner, 'user');

      for (const body of [{}, { role: 'admin' }, { role: 'OWNER' }, { role: null }]) {
        const response = await setRole(owner, member.id, body);
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          error: 'Validation Error',
          fields: { role: 'role must be one of the following values: owner, user, viewer' },
        });
      }
      expect(await roleOf(owner, member)).toBe('user');
    });

    it('answers 400 for an id that is not a UUID and 404 for a user who is not a member', async () => {
      const owner = await signUp(app.trove, { name: 'Hal' });
      const before = await readMembers(app.trove, owner);

      const malformed = await setRole(owner, 'not-a-uuid', { role: 'user' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: user_id' });

      const unknown = await setRole(owner, UNKNOWN_ID, { role: 'user' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `user ${UNKNOWN_ID} is not a member of this group` });

      expect(await readMembers(app.trove, owner)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'put', `/api/v1/groups/members/${outsider.id}`, {
        role: 'viewer',
      });
      expect(await roleOf(outsider, outsider)).toBe('owner');
    });
  });

  describe('roles', () => {
    it('answers 403 to a member and to a viewer, and changes nothing', async () => {
      const owner = await signUp(app.trove, { name: 'Ivy' });
      const member = await signUpMember(app.trove, owner, 'user');
      const viewer = await signUpMember(app.trove, owner, 'viewer');
      const before = await readMembers(app.trove, owner);

      const promoteSelf = await setRole(member, member.id, { role: 'owner' });
      expect(promoteSelf.status).toBe(403);
      expect(promoteSelf.body).toEqual(OWNER_ONLY);

      const demoteOwner = await setRole(viewer, owner.id, { role: 'viewer' });
      expect(demoteOwner.status).toBe(403);
      expect(demoteOwner.body).toEqual(OWNER_ONLY);

      expect(await readMembers(app.trove, owner)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for a member of another group, whose role stays', async () => {
      const owner = await signUp(app.trove, { name: 'Jay' });
      const foreignMember = await signUpMember(app.trove, outsider, 'user');

      const response = await setRole(owner, foreignMember.id, { role: 'owner' });

      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        error: `user ${foreignMember.id} is not a member of this group`,
      });
      expect(await roleOf(outsider, foreignMember)).toBe('user');
      expect(await roleOf(outsider, outsider)).toBe('owner');
    });

    it('answers 403 to a user of another group who names this group', async () => {
      const owner = await signUp(app.trove, { name: 'Kim' });

      const response = await setRole(outsider, owner.id, { role: 'user' }, owner.groupId);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
      expect(await roleOf(owner, owner)).toBe('owner');
    });
  });
});
