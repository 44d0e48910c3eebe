import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
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
  let trove: TestApp;
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove, { name: 'Ada' });
    member = await signUpMember(trove, owner, 'user');
    viewer = await signUpMember(trove, owner, 'viewer');
    outsider = await signUp(trove, { name: 'Eve' });
  });
  afterAll(() => trove.close());

  describe('success', () => {
    it('answers 200 with the usable invitations, newest first, without their tokens', async () => {
      const first = await invite(trove, owner, { uses: 4 });
      const second = await invite(trove, owner, { uses: 1, role: 'viewer' });

      const response = await as(trove, owner, 'get', '/api/v1/groups/invitations').expect(200);

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
      const expected = await readInvitations(trove, owner);
      expect(expected.length).toBeGreaterThan(0);
      expect(await readInvitations(trove, member)).toEqual(expected);
      expect(await readInvitations(trove, viewer)).toEqual(expected);
    });

    it('counts uses down and leaves out used-up and expired invitations', async () => {
      const twice = await invite(trove, owner, { uses: 2 });
      const once = await invite(trove, owner, { uses: 1 });
      const soon = await invite(trove, owner, { uses: 3 });

      await signUp(trove, { invitation: twice.token });
      await signUp(trove, { invitation: once.token });
      let listed = await readInvitations(trove, owner);
      expect(listed.find((item) => item.id === twice.id)?.uses).toBe(1);
      expect(listed.find((item) => item.id === once.id)).toBeUndefined();
      expect(listed.find((item) => item.id === soon.id)?.uses).toBe(3);

      // Its time runs out: moved into the past in the database, so no test waits on the clock.
      await trove.query(
        `UPDATE group_invitation_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [soon.id],
      );
      listed = await readInvitations(trove, owner);
      expect(listed.find((item) => item.id === soon.id)).toBeUndefined();
      expect(listed.find((item) => item.id === twice.id)?.uses).toBe(1);
    });
  });

  describe('bad input', () => {
    it('answers 400 for a tenant that is not a UUID', async () => {
      const response = await as(trove, owner, 'get', '/api/v1/groups/invitations', 'x-1');
      expect(response.status).toBe(400);
      expect(response.body).toEqual(BAD_TENANT);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(trove, 'get', '/api/v1/groups/invitations');
    });
  });

  describe('another group', () => {
    it('answers 403 to a user of another group who names this group', async () => {
      const response = await as(
        trove,
        outsider,
        'get',
        '/api/v1/groups/invitations',
        owner.groupId,
      );
      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
    });

    it('shows a user of another group only their own invitations', async () => {
      expect(await readInvitations(trove, outsider)).toEqual([]);
      const own = await invite(trove, outsider, { uses: 1 });

      expect(await readInvitations(trove, outsider)).toEqual([
        expect.objectContaining({ id: own.id, group: groupShape(outsider.groupId, "Eve's Home") }),
      ]);
      expect((await readInvitations(trove, owner)).map((item) => item.id)).not.toContain(own.id);
    });
  });
});
