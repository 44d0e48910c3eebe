import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  expectUnauthenticated,
  invite,
  memberShape,
  NO_ACCESS,
  OWNER_ONLY,
  readInvitations,
  readMembers,
  UNKNOWN_ID,
} from './group-helpers.js';

describe('DELETE /api/v1/groups/invitations/{id}', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const deleteInvitation = (session: Session, id: string, tenant?: string) =>
    as(app.trove, session, 'delete', `/api/v1/groups/invitations/${id}`, tenant);

  const listedIds = async (session: Session): Promise<string[]> =>
    (await readInvitations(app.trove, session)).map((item) => item.id);

  describe('success', () => {
    it('answers 204, the invitation is gone and its token no longer works', async () => {
      const kept = await invite(app.trove, owner, { uses: 1 });
      const doomed = await invite(app.trove, owner, { uses: 3 });

      const response = await deleteInvitation(owner, doomed.id).expect(204);

      expect(response.text).toBe('');
      expect(await listedIds(owner)).toEqual([kept.id]);
      const register = await app.trove.http.post('/api/v1/users/register').send({
        name: 'Late',
        email: 'late@example.com',
        password: 'correct horse battery',
        token: doomed.token,
      });
      expect(register.status).toBe(404);
      expect(register.body).toEqual({ error: 'invitation not found' });
      const joiner = await signUp(app.trove, { name: 'Joiner' });
      const accept = await as(
        app.trove,
        joiner,
        'post',
        `/api/v1/groups/invitations/${doomed.token}`,
      );
      expect(accept.status).toBe(404);
      expect(accept.body).toEqual({ error: 'invitation not found' });

      await deleteInvitation(owner, kept.id).expect(204);
      expect(await listedIds(owner)).toEqual([]);
    });
  });

  describe('bad input', () => {
    it('answers 400 for an id that is not a UUID and 404 for an unknown id, deleting nothing', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1 });

      const malformed = await deleteInvitation(owner, 'not-an-id');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: id' });

      const unknown = await deleteInvitation(owner, UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `invitation ${UNKNOWN_ID} not found` });

      expect(await listedIds(owner)).toContain(invitation.id);
      await deleteInvitation(owner, invitation.id).expect(204);
      const again = await deleteInvitation(owner, invitation.id);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: `invitation ${invitation.id} not found` });
    });

    it('does not take the token in place of the id', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1 });

      const response = await deleteInvitation(owner, invitation.token);

      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: 'invalid route key: id' });
      expect(await listedIds(owner)).toContain(invitation.id);
      await deleteInvitation(owner, invitation.id).expect(204);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, deleting nothing', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1 });

      await expectUnauthenticated(
        app.trove,
        'delete',
        `/api/v1/groups/invitations/${invitation.id}`,
      );

      expect(await listedIds(owner)).toContain(invitation.id);
      await deleteInvitation(owner, invitation.id).expect(204);
    });
  });

  describe('roles', () => {
    it('answers 403 to a member and to a viewer, deleting nothing', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1 });

      for (const session of [member, viewer]) {
        const response = await deleteInvitation(session, invitation.id);
        expect(response.status).toBe(403);
        expect(response.body).toEqual(OWNER_ONLY);
      }
      expect(await listedIds(owner)).toContain(invitation.id);
      await deleteInvitation(owner, invitation.id).expect(204);
    });
  });

  describe('another group', () => {
    it('answers 404 for another group’s invitation, which stays usable', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1 });

      const response = await deleteInvitation(outsider, invitation.id);

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `invitation ${invitation.id} not found` });
      expect(await listedIds(owner)).toContain(invitation.id);
      const guest = await signUp(app.trove, { name: 'Guest', invitation: invitation.token });
      expect(await readMembers(app.trove, owner)).toContainEqual(memberShape(guest, 'user'));
    });

    it('answers 403 to a user of another group who names this group', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1 });

      const response = await deleteInvitation(outsider, invitation.id, owner.groupId);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
      expect(await listedIds(owner)).toContain(invitation.id);
    });
  });
});
