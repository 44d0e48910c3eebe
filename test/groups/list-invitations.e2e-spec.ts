import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  BAD_TENANT,
  expectUnauthenticated,
  groupShape,
  invite,
  NO_ACCESS,
  readInvitations,
} from './group-helpers.js';

describe('GET /api/v1/groups/invitations', () => {
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

  describe('success', () => {
    it('answers 200 with the usable invitations, newest first, without their tokens', async () => {
      const first = await invite(app.trove, owner, { uses: 4 });
      const second = await invite(app.trove, owner, { uses: 1, role: 'viewer' });

      const response = await as(app.trove, owner, 'get', '/api/v1/groups/invitations').expect(200);

      const group = groupShape(owner.groupId, "Ada's Home");
      expect(response.body).toEqual([
        { id: second.id, expiresAt: second.expiresAt, uses: 1, role: 'viewer', group },
        { id: first.id, expiresAt: first.expiresAt, uses: 4, role: 'user', group },
      ]);
      for (const item of response.body as object[]) {
        expect(Object.keys(item).sort()).toEqual(['expiresAt', 'group', 'id', 'role', 'uses']);
      }
      expect(JSON.stringify(response.body)).not.toContain(first.token);
    });

    it('shows the same list to members and viewers', async () => {
      const expected = await readInvitations(app.trove, owner);
      expect(expected.length).toBeGreaterThan(0);
      expect(await readInvitations(app.trove, member)).toEqual(expected);
      expect(await readInvitations(app.trove, viewer)).toEqual(expected);
    });

    it('counts uses down and leaves out used-up and expired invitations', async () => {
      const twice = await invite(app.trove, owner, { uses: 2 });
      const once = await invite(app.trove, owner, { uses: 1 });
      const soon = await invite(app.trove, owner, { uses: 3 });

      await signUp(app.trove, { invitation: twice.token });
      await signUp(app.trove, { invitation: once.token });
      let listed = await readInvitations(app.trove, owner);
      expect(listed.find((item) => item.id === twice.id)?.uses).toBe(1);
      expect(listed.find((item) => item.id === once.id)).toBeUndefined();
      expect(listed.find((item) => item.id === soon.id)?.uses).toBe(3);

      // Its time runs out: moved into the past in the database, so no test waits on the clock.
      await app.trove.query(
        `UPDATE group_invitation_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [soon.id],
      );
      listed = await readInvitations(app.trove, owner);
      expect(listed.find((item) => item.id === soon.id)).toBeUndefined();
      expect(listed.find((item) => item.id === twice.id)?.uses).toBe(1);
    });
  });

  describe('bad input', () => {
    it('answers 400 for a tenant that is not a UUID', async () => {
      const response = await as(app.trove, owner, 'get', '/api/v1/groups/invitations', 'x-1');
      expect(response.status).toBe(400);
      expect(response.body).toEqual(BAD_TENANT);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', '/api/v1/groups/invitations');
    });
  });

  describe('another group', () => {
    it('answers 403 to a user of another group who names this group', async () => {
      const response = await as(
        app.trove,
        outsider,
        'get',
        '/api/v1/groups/invitations',
        owner.groupId,
      );
      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
    });

    it('shows a user of another group only their own invitations', async () => {
      expect(await readInvitations(app.trove, outsider)).toEqual([]);
      const own = await invite(app.trove, outsider, { uses: 1 });

      expect(await readInvitations(app.trove, outsider)).toEqual([
        expect.objectContaining({ id: own.id, group: groupShape(outsider.groupId, "Eve's Home") }),
      ]);
      expect((await readInvitations(app.trove, owner)).map((item) => item.id)).not.toContain(
        own.id,
      );
    });
  });
});
