import { beforeAll, describe, expect, it } from 'vitest';
import { Storage } from '../../src/platform/storage/storage.js';
import { exportZip } from '../collection-backups/backup-helpers.js';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createGroup,
  expectUnauthenticated,
  groupShape,
  invite,
  NO_ACCESS,
  NO_GROUP,
  OWNER_ONLY,
  readAllGroups,
  readDefaultGroupId,
  readGroup,
} from './group-helpers.js';

describe('DELETE /api/v1/groups', () => {
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const remove = (session: Session, tenant?: string) =>
    as(app.trove, session, 'delete', '/api/v1/groups', tenant);

  describe('success', () => {
    it('answers 204 and deletes a group that is not the caller’s default', async () => {
      const owner = await signUp(app.trove, { name: 'Ada' });
      const lab = await createGroup(app.trove, owner, 'Lab');

      const response = await remove(owner, lab.id).expect(204);

      expect(response.text).toBe('');
      expect((await readAllGroups(app.trove, owner)).map((g) => g.id)).toEqual([owner.groupId]);
      const gone = await as(app.trove, owner, 'get', '/api/v1/groups', lab.id);
      expect(gone.status).toBe(403);
      expect(gone.body).toEqual(NO_ACCESS);
      expect(await readDefaultGroupId(app.trove, owner)).toBe(owner.groupId);
    });

    it('deletes the default group with its starter data and moves every member’s default', async () => {
      const owner = await signUp(app.trove, { name: 'Bob' });
      const lab = await createGroup(app.trove, owner, 'Lab');
      const member = await signUpMember(app.trove, owner, 'user');
      const memberOwn = await createGroup(app.trove, member, 'Member’s own');
      const viewer = await signUpMember(app.trove, owner, 'viewer');
      const invitation = await invite(app.trove, owner, { uses: 5 });

      await remove(owner).expect(204);

      expect(await readDefaultGroupId(app.trove, owner)).toBe(lab.id);
      expect(await readGroup(app.trove, owner)).toEqual(groupShape(lab.id, 'Lab'));
      expect(await readAllGroups(app.trove, owner)).toEqual([groupShape(lab.id, 'Lab')]);

      expect(await readDefaultGroupId(app.trove, member)).toBe(memberOwn.id);
      expect(await readGroup(app.trove, member)).toEqual(groupShape(memberOwn.id, 'Member’s own'));

      expect(await readDefaultGroupId(app.trove, viewer)).toBeNull();
      expect(await readAllGroups(app.trove, viewer)).toEqual([]);
      const orphan = await as(app.trove, viewer, 'get', '/api/v1/groups');
      expect(orphan.status).toBe(403);
      expect(orphan.body).toEqual(NO_GROUP);

      const register = await app.trove.http.post('/api/v1/users/register').send({
        name: 'Late',
        email: 'late-comer@example.com',
        password: 'correct horse battery',
        token: invitation.token,
      });
      expect(register.status).toBe(404);
      expect(register.body).toEqual({ error: 'invitation not found' });
    });

    it('deletes the stored zips of the group’s backups once the group is gone', async () => {
      const owner = await signUp(app.trove, { name: 'Gus' });
      await createGroup(app.trove, owner, 'Lab');
      const { job } = await exportZip(app.trove, owner);
      const [{ key }] = await app.trove.query<{ key: string }>(
        'SELECT artifact_key AS key FROM group_exports WHERE id = $1',
        [job.id],
      );
      const storage = app.trove.app.get(Storage);
      expect(key).toMatch(new RegExp(`^${owner.groupId}/exports/`));
      expect(await storage.exists(key)).toBe(true);

      await remove(owner).expect(204);

      expect(await storage.exists(key)).toBe(false);
      expect(
        await app.trove.query('SELECT id FROM group_exports WHERE group_id = $1', [owner.groupId]),
      ).toEqual([]);
    });
  });

  describe('bad input', () => {
    it('answers 400 when it is the caller’s only group, and deletes nothing', async () => {
      const owner = await signUp(app.trove, { name: 'Cleo' });

      const response = await remove(owner);

      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'cannot delete your only group; create or join another first',
      });
      expect(await readGroup(app.trove, owner)).toEqual(groupShape(owner.groupId, "Cleo's Home"));
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      const before = await readGroup(app.trove, outsider);
      await expectUnauthenticated(app.trove, 'delete', '/api/v1/groups');
      expect(await readGroup(app.trove, outsider)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a member and to a viewer, even when they have other groups', async () => {
      const owner = await signUp(app.trove, { name: 'Dan' });
      const member = await signUpMember(app.trove, owner, 'user');
      const viewer = await signUpMember(app.trove, owner, 'viewer');
      await createGroup(app.trove, member, 'Member’s own');
      await createGroup(app.trove, viewer, 'Viewer’s own');

      for (const session of [member, viewer]) {
        const response = await remove(session, owner.groupId);
        expect(response.status).toBe(403);
        expect(response.body).toEqual(OWNER_ONLY);
      }
      expect(await readGroup(app.trove, owner)).toEqual(groupShape(owner.groupId, "Dan's Home"));
      expect(await readGroup(app.trove, member, owner.groupId)).toEqual(
        groupShape(owner.groupId, "Dan's Home"),
      );
    });
  });

  describe('another group', () => {
    it('answers 403 to a user of another group who names it, and deletes nothing', async () => {
      const owner = await signUp(app.trove, { name: 'Fay' });
      await createGroup(app.trove, outsider, 'Second');

      const response = await remove(outsider, owner.groupId);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
      expect(await readGroup(app.trove, owner)).toEqual(groupShape(owner.groupId, "Fay's Home"));
      expect(await readAllGroups(app.trove, outsider)).toHaveLength(2);
    });
  });
});
