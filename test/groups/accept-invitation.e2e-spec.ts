import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, uniqueEmail, type Session } from '../support/factories.js';
import {
  as,
  expectUnauthenticated,
  groupShape,
  invite,
  memberShape,
  NO_ACCESS,
  OWNER_ONLY,
  readAllGroups,
  readDefaultGroupId,
  readGroup,
  readInvitations,
  readMembers,
} from './group-helpers.js';

const EXPIRED = { error: 'invitation has expired' };
const USED_UP = { error: 'invitation has no uses left' };
const NOT_FOUND = { error: 'invitation not found' };
const ALREADY_MEMBER = { error: 'you are already a member of this group' };

describe('POST /api/v1/groups/invitations/{token} and registration with a token', () => {
  let owner: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const accept = (session: Session, token: string, tenant?: string) =>
    as(app.trove, session, 'post', `/api/v1/groups/invitations/${token}`, tenant);

  const register = (token: string, email = uniqueEmail('guest')) =>
    app.trove.http
      .post('/api/v1/users/register')
      .send({ name: 'Guest', email, password: 'correct horse battery', token });

  const usesLeft = async (id: string): Promise<number | undefined> =>
    (await readInvitations(app.trove, owner)).find((item) => item.id === id)?.uses;

  /** True when nobody has registered with this e-mail address (registering it again works). */
  const emailIsFree = async (email: string): Promise<boolean> => {
    const response = await app.trove.http
      .post('/api/v1/users/register')
      .send({ name: 'Probe', email, password: 'correct horse battery' });
    return response.status === 204;
  };

  describe('success', () => {
    it('answers 200 with the joined group’s id and name; the caller joins as a user', async () => {
      const joiner = await signUp(app.trove, { name: 'Jo' });
      const invitation = await invite(app.trove, owner, { uses: 2 });

      const response = await accept(joiner, invitation.token).expect(200);

      expect(response.body).toEqual({ id: owner.groupId, name: "Ada's Home" });
      expect(Object.keys(response.body).sort()).toEqual(['id', 'name']);
      expect(await readMembers(app.trove, owner)).toContainEqual(memberShape(joiner, 'user'));
      expect(await usesLeft(invitation.id)).toBe(1);
      expect(await readDefaultGroupId(app.trove, joiner)).toBe(joiner.groupId);
      expect(await readGroup(app.trove, joiner, owner.groupId)).toEqual(
        groupShape(owner.groupId, "Ada's Home"),
      );
    });

    it('makes a viewer from a viewer invitation, who can read but not write', async () => {
      const joiner = await signUp(app.trove, { name: 'Vi' });
      const invitation = await invite(app.trove, owner, { uses: 1, role: 'viewer' });

      await accept(joiner, invitation.token).expect(200);

      expect(await readMembers(app.trove, owner)).toContainEqual(memberShape(joiner, 'viewer'));
      expect(await readMembers(app.trove, joiner, owner.groupId)).toContainEqual(
        memberShape(joiner, 'viewer'),
      );
      const write = await as(app.trove, joiner, 'put', '/api/v1/groups', owner.groupId).send({
        name: 'Viewer was here',
      });
      expect(write.status).toBe(403);
      expect(write.body).toEqual(OWNER_ONLY);
      expect(await readGroup(app.trove, owner)).toMatchObject({ name: "Ada's Home" });
    });

    it('registers a new user into the group, without a group of their own', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1, role: 'viewer' });

      const guest = await signUp(app.trove, { name: 'Newbie', invitation: invitation.token });

      expect(guest.groupId).toBe(owner.groupId);
      expect(await readAllGroups(app.trove, guest)).toEqual([
        groupShape(owner.groupId, "Ada's Home"),
      ]);
      expect(await readMembers(app.trove, owner)).toContainEqual(memberShape(guest, 'viewer'));
      expect(await usesLeft(invitation.id)).toBeUndefined();
    });

    it('gives a user without any group the joined group as default', async () => {
      const member = await signUpMember(app.trove, owner, 'user');
      await as(app.trove, owner, 'delete', `/api/v1/groups/members/${member.id}`).expect(204);
      expect(await readDefaultGroupId(app.trove, member)).toBeNull();
      const invitation = await invite(app.trove, outsider, { uses: 1 });

      await accept(member, invitation.token).expect(200);

      expect(await readDefaultGroupId(app.trove, member)).toBe(outsider.groupId);
      expect(await readGroup(app.trove, member)).toEqual(
        groupShape(outsider.groupId, "Eve's Home"),
      );
    });
  });

  describe('bad input', () => {
    it('answers 404 for an unknown token, on accept and on registration, writing nothing', async () => {
      const joiner = await signUp(app.trove, { name: 'Nobody' });
      const email = uniqueEmail('unknown');

      const accepted = await accept(joiner, 'no-such-invitation-token');
      expect(accepted.status).toBe(404);
      expect(accepted.body).toEqual(NOT_FOUND);

      const registered = await register('no-such-invitation-token', email);
      expect(registered.status).toBe(404);
      expect(registered.body).toEqual(NOT_FOUND);

      expect(await readAllGroups(app.trove, joiner)).toEqual([
        groupShape(joiner.groupId, "Nobody's Home"),
      ]);
      expect(await emailIsFree(email)).toBe(true);
    });

    it('answers 410 for an expired invitation, on accept and on registration, writing nothing', async () => {
      const joiner = await signUp(app.trove, { name: 'Late' });
      const invitation = await invite(app.trove, owner, { uses: 5 });
      await app.trove.query(
        `UPDATE group_invitation_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [invitation.id],
      );
      const email = uniqueEmail('late');

      const accepted = await accept(joiner, invitation.token);
      expect(accepted.status).toBe(410);
      expect(accepted.body).toEqual(EXPIRED);

      const registered = await register(invitation.token, email);
      expect(registered.status).toBe(410);
      expect(registered.body).toEqual(EXPIRED);

      expect((await readMembers(app.trove, owner)).map((item) => item.id)).not.toContain(joiner.id);
      expect(await emailIsFree(email)).toBe(true);
    });

    it('answers 410 for a used-up invitation, on accept and on registration, writing nothing', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1 });
      const first = await signUp(app.trove, { name: 'First' });
      await accept(first, invitation.token).expect(200);
      const second = await signUp(app.trove, { name: 'Second' });
      const email = uniqueEmail('used');

      const accepted = await accept(second, invitation.token);
      expect(accepted.status).toBe(410);
      expect(accepted.body).toEqual(USED_UP);

      const registered = await register(invitation.token, email);
      expect(registered.status).toBe(410);
      expect(registered.body).toEqual(USED_UP);

      expect((await readMembers(app.trove, owner)).map((item) => item.id)).not.toContain(second.id);
      expect(await emailIsFree(email)).toBe(true);
    });

    it('answers 409 when the caller is already a member, and takes no use', async () => {
      const member = await signUpMember(app.trove, owner, 'viewer');
      const invitation = await invite(app.trove, owner, { uses: 2 });
      const before = await readMembers(app.trove, owner);

      for (const session of [member, owner]) {
        const response = await accept(session, invitation.token);
        expect(response.status).toBe(409);
        expect(response.body).toEqual(ALREADY_MEMBER);
      }
      expect(await usesLeft(invitation.id)).toBe(2);
      expect(await readMembers(app.trove, owner)).toEqual(before);
    });

    it('takes no use when registration fails because the e-mail address is taken', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1 });

      const response = await register(invitation.token, outsider.email);

      expect(response.status).toBe(409);
      expect(response.body).toEqual({ error: 'a user with this e-mail address already exists' });
      expect(await usesLeft(invitation.id)).toBe(1);
      expect(await readAllGroups(app.trove, outsider)).toEqual([
        groupShape(outsider.groupId, "Eve's Home"),
      ]);
    });
  });

  describe('concurrency', () => {
    it('lets exactly as many users join as the invitation has uses, when they accept at once', async () => {
      const invitation = await invite(app.trove, owner, { uses: 2 });
      const joiners = await Promise.all(
        ['Ann', 'Ben', 'Cid'].map((name) => signUp(app.trove, { name })),
      );

      const responses = await Promise.all(
        joiners.map((joiner) => accept(joiner, invitation.token)),
      );

      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([200, 200, 410]);
      expect(responses.find((response) => response.status === 410)?.body).toEqual(USED_UP);
      const memberIds = (await readMembers(app.trove, owner)).map((item) => item.id);
      const joined = joiners.filter((joiner) => memberIds.includes(joiner.id));
      expect(joined).toHaveLength(2);
      expect(await usesLeft(invitation.id)).toBeUndefined();
    });

    it('lets exactly as many users register as the invitation has uses, when they register at once', async () => {
      const invitation = await invite(app.trove, owner, { uses: 2 });
      const before = (await readMembers(app.trove, owner)).length;
      const emails = [uniqueEmail('r1'), uniqueEmail('r2'), uniqueEmail('r3')];

      const responses = await Promise.all(emails.map((email) => register(invitation.token, email)));

      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([204, 204, 410]);
      expect(responses.find((response) => response.status === 410)?.body).toEqual(USED_UP);
      const members = await readMembers(app.trove, owner);
      expect(members).toHaveLength(before + 2);
      expect(members.filter((item) => emails.includes(item.email))).toHaveLength(2);
    });

    it('lets one user join once when they accept the same invitation twice at once', async () => {
      const invitation = await invite(app.trove, owner, { uses: 5 });
      const joiner = await signUp(app.trove, { name: 'Dup' });

      const responses = await Promise.all([
        accept(joiner, invitation.token),
        accept(joiner, invitation.token),
      ]);

      expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
      expect(responses.find((response) => response.status === 409)?.body).toEqual(ALREADY_MEMBER);
      expect(await usesLeft(invitation.id)).toBe(4);
      const memberships = (await readMembers(app.trove, owner)).filter(
        (item) => item.id === joiner.id,
      );
      expect(memberships).toEqual([memberShape(joiner, 'user')]);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and takes no use', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1 });

      await expectUnauthenticated(
        app.trove,
        'post',
        `/api/v1/groups/invitations/${invitation.token}`,
      );

      expect(await usesLeft(invitation.id)).toBe(1);
    });
  });

  describe('another group', () => {
    it('answers 403 when the caller names a group they do not belong to, and takes no use', async () => {
      const invitation = await invite(app.trove, owner, { uses: 1 });
      const joiner = await signUp(app.trove, { name: 'Sly' });

      const response = await accept(joiner, invitation.token, outsider.groupId);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
      expect(await usesLeft(invitation.id)).toBe(1);
      expect((await readMembers(app.trove, owner)).map((item) => item.id)).not.toContain(joiner.id);
    });

    it('does not let an invitation to one group be used on another', async () => {
      const invitation = await invite(app.trove, outsider, { uses: 1 });
      const joiner = await signUp(app.trove, { name: 'Tim' });

      const response = await accept(joiner, invitation.token).expect(200);

      expect(response.body).toEqual({ id: outsider.groupId, name: "Eve's Home" });
      expect((await readMembers(app.trove, owner)).map((item) => item.id)).not.toContain(joiner.id);
    });
  });
});
