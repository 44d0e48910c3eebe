import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  expectUnauthenticated,
  groupShape,
  memberShape,
  NO_ACCESS,
  OWNER_ONLY,
  readInvitations,
  readMembers,
} from './group-helpers.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOT_AN_INTEGER =
  'uses must not be greater than 100; uses must not be less than 1; uses must be an integer number';

describe('POST /api/v1/groups/invitations', () => {
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

  const createInvitation = (session: Session, body: unknown, tenant?: string) =>
    as(app.trove, session, 'post', '/api/v1/groups/invitations', tenant).send(body as object);

  describe('success', () => {
    it('answers 200 with exactly expiresAt, id, token and uses, expiring in 24 hours', async () => {
      const before = Date.now();
      const response = await createInvitation(owner, { uses: 3 });
      const after = Date.now();

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        expiresAt: expect.any(String),
        id: expect.any(String),
        token: expect.any(String),
        uses: 3,
      });
      expect(Object.keys(response.body).sort()).toEqual(['expiresAt', 'id', 'token', 'uses']);
      const body = response.body as { expiresAt: string; id: string; token: string };
      expect(new Date(body.expiresAt).toISOString()).toBe(body.expiresAt);
      expect(Date.parse(body.expiresAt)).toBeGreaterThanOrEqual(before + DAY_MS - 1000);
      expect(Date.parse(body.expiresAt)).toBeLessThanOrEqual(after + DAY_MS + 1000);
      expect(body.token.length).toBeGreaterThanOrEqual(20);

      expect(await readInvitations(app.trove, owner)).toContainEqual({
        id: body.id,
        expiresAt: body.expiresAt,
        uses: 3,
        role: 'user',
        group: groupShape(owner.groupId, "Ada's Home"),
      });
    });

    it('keeps a given expiry and gives a fresh token every time', async () => {
      const expiresAt = new Date(Date.now() + 3 * DAY_MS).toISOString();

      const first = await createInvitation(owner, { uses: 1, expiresAt }).expect(200);
      const second = await createInvitation(owner, { uses: 100, expiresAt }).expect(200);

      expect(first.body).toEqual({
        expiresAt,
        id: expect.any(String),
        token: expect.any(String),
        uses: 1,
      });
      expect(second.body).toEqual({
        expiresAt,
        id: expect.any(String),
        token: expect.any(String),
        uses: 100,
      });
      const [a, b] = [first.body, second.body] as { id: string; token: string }[];
      expect(a.id).not.toBe(b.id);
      expect(a.token).not.toBe(b.token);
      const listed = await readInvitations(app.trove, owner);
      expect(listed.find((item) => item.id === a.id)).toMatchObject({ expiresAt, uses: 1 });
      expect(listed.find((item) => item.id === b.id)).toMatchObject({ expiresAt, uses: 100 });
    });

    it('makes a viewer invitation whose guest joins as a viewer', async () => {
      const response = await createInvitation(owner, { uses: 1, role: 'viewer' }).expect(200);
      const { id, token } = response.body as { id: string; token: string };
      expect((await readInvitations(app.trove, owner)).find((item) => item.id === id)?.role).toBe(
        'viewer',
      );

      const guest = await signUp(app.trove, { name: 'Guest', invitation: token });

      expect(await readMembers(app.trove, owner)).toContainEqual(memberShape(guest, 'viewer'));
    });
  });

  describe('bad input', () => {
    const invalid: [string, unknown, string][] = [
      ['zero', { uses: 0 }, 'uses must not be less than 1'],
      ['101', { uses: 101 }, 'uses must not be greater than 100'],
      ['a string', { uses: '3' }, NOT_AN_INTEGER],
      ['a fraction', { uses: 1.5 }, 'uses must be an integer number'],
      ['missing', {}, NOT_AN_INTEGER],
      ['null', { uses: null }, NOT_AN_INTEGER],
      ['true', { uses: true }, NOT_AN_INTEGER],
    ];

    it.each(invalid)(
      'answers 422 with fields.uses when uses is %s, and creates nothing',
      async (_label, body, message) => {
        const before = await readInvitations(app.trove, owner);

        const response = await createInvitation(owner, body);

        expect(response.status).toBe(422);
        expect(response.body).toEqual({ error: 'Validation Error', fields: { uses: message } });
        expect(await readInvitations(app.trove, owner)).toEqual(before);
      },
    );

    it('answers 422 for a bad or past expiry and for an unknown role, and creates nothing', async () => {
      const before = await readInvitations(app.trove, owner);

      const notADate = await createInvitation(owner, { uses: 1, expiresAt: 'tomorrow' });
      expect(notADate.status).toBe(422);
      expect(notADate.body).toEqual({
        error: 'Validation Error',
        fields: { expiresAt: 'expiresAt must be a valid ISO 8601 date string' },
      });

      const past = await createInvitation(owner, {
        uses: 1,
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      });
      expect(past.status).toBe(422);
      expect(past.body).toEqual({
        error: 'Validation Error',
        fields: { expiresAt: 'expiresAt must be in the future' },
      });

      const owners = await createInvitation(owner, { uses: 1, role: 'owner' });
      expect(owners.status).toBe(422);
      expect(owners.body).toEqual({
        error: 'Validation Error',
        fields: { role: 'role must be one of the following values: user, viewer' },
      });

      expect(await readInvitations(app.trove, owner)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and creates nothing', async () => {
      const before = await readInvitations(app.trove, owner);
      await expectUnauthenticated(app.trove, 'post', '/api/v1/groups/invitations', { uses: 1 });
      expect(await readInvitations(app.trove, owner)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a member and to a viewer, and creates nothing', async () => {
      const before = await readInvitations(app.trove, owner);

      for (const session of [member, viewer]) {
        const response = await createInvitation(session, { uses: 1 });
        expect(response.status).toBe(403);
        expect(response.body).toEqual(OWNER_ONLY);
      }
      expect(await readInvitations(app.trove, member)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 403 to a user of another group who names this group, and creates nothing', async () => {
      const before = await readInvitations(app.trove, owner);

      const response = await createInvitation(outsider, { uses: 5 }, owner.groupId);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
      expect(await readInvitations(app.trove, owner)).toEqual(before);
    });

    it('invites only to the caller’s own group', async () => {
      const before = await readInvitations(app.trove, owner);

      const response = await createInvitation(outsider, { uses: 2 }).expect(200);

      const { id } = response.body as { id: string };
      expect(await readInvitations(app.trove, outsider)).toEqual([
        expect.objectContaining({ id, group: groupShape(outsider.groupId, "Eve's Home") }),
      ]);
      expect(await readInvitations(app.trove, owner)).toEqual(before);
    });
  });
});
