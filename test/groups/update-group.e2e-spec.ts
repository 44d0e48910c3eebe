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
  OWNER_ONLY,
  readGroup,
  readMembers,
  type GroupBody,
} from './group-helpers.js';

describe('PUT /api/v1/groups', () => {
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

  const update = (session: Session, body: object, tenant?: string) =>
    as(app.trove, session, 'put', '/api/v1/groups', tenant).send(body);

  describe('success', () => {
    it('renames the group and sets a currency given in lower case, returned upper case', async () => {
      const before = await readGroup(app.trove, owner);

      const response = await update(owner, { name: 'Workshop', currency: 'eur' }).expect(200);

      expect(response.body).toEqual(groupShape(owner.groupId, 'Workshop', 'EUR'));
      expect(Object.keys(response.body).sort()).toEqual(GROUP_KEYS);
      const body = response.body as GroupBody;
      expect(body.createdAt).toBe(before.createdAt);
      expect(Date.parse(body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));
      expect(await readGroup(app.trove, owner)).toEqual(body);
      expect(await readGroup(app.trove, member)).toEqual(body);
    });

    it('accepts a currency in mixed case and keeps the name when it is omitted', async () => {
      const response = await update(owner, { currency: 'jPy' }).expect(200);
      expect(response.body).toEqual(groupShape(owner.groupId, 'Workshop', 'JPY'));
      expect(await readGroup(app.trove, owner)).toMatchObject({
        name: 'Workshop',
        currency: 'JPY',
      });
    });

    it('keeps the currency when only the name changes', async () => {
      const response = await update(owner, { name: "Ada's Home" }).expect(200);
      expect(response.body).toEqual(groupShape(owner.groupId, "Ada's Home", 'JPY'));
    });

    it('ignores keys it does not declare, such as id, groupId, role and createdAt', async () => {
      const before = await readGroup(app.trove, owner);

      const response = await update(owner, {
        name: 'Renamed',
        currency: 'USD',
        id: outsider.groupId,
        groupId: outsider.groupId,
        role: 'viewer',
        createdAt: '2000-01-01T00:00:00.000Z',
        userId: outsider.id,
      }).expect(200);

      expect(response.body).toEqual(groupShape(owner.groupId, 'Renamed', 'USD'));
      expect((response.body as GroupBody).createdAt).toBe(before.createdAt);
      expect(await readGroup(app.trove, outsider)).toEqual(
        groupShape(outsider.groupId, "Eve's Home"),
      );
      expect(await readMembers(app.trove, owner)).toContainEqual(memberShape(owner, 'owner'));
      expect(await readMembers(app.trove, outsider)).toEqual([memberShape(outsider, 'owner')]);
    });
  });

  describe('bad input', () => {
    it('answers 422 for an unknown currency and writes nothing', async () => {
      const before = await readGroup(app.trove, owner);

      const response = await update(owner, { name: 'Not saved', currency: 'xyz' });

      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        error: 'Validation Error',
        fields: { currency: "currency 'xyz' is not supported" },
      });
      expect(await readGroup(app.trove, owner)).toEqual(before);
    });

    it('answers 422 for an empty, too long or non-string name and writes nothing', async () => {
      const before = await readGroup(app.trove, owner);

      for (const name of ['', 'x'.repeat(256), 42, null]) {
        const response = await update(owner, { name, currency: 'EUR' });
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          error: 'Validation Error',
          fields: { name: expect.stringContaining('name must be') },
        });
      }
      expect(await readGroup(app.trove, owner)).toEqual(before);
    });

    it('answers 422 for an empty or non-string currency and writes nothing', async () => {
      const before = await readGroup(app.trove, owner);

      const empty = await update(owner, { currency: '' });
      expect(empty.status).toBe(422);
      expect(empty.body).toEqual({
        error: 'Validation Error',
        fields: { currency: "currency '' is not supported" },
      });

      for (const currency of [978, null, ['EUR']]) {
        const response = await update(owner, { currency });
        expect(response.status).toBe(422);
        expect(response.body).toEqual({
          error: 'Validation Error',
          fields: { currency: 'currency must be a string' },
        });
      }
      expect(await readGroup(app.trove, owner)).toEqual(before);
    });

    it('answers 400 for malformed JSON and writes nothing', async () => {
      const before = await readGroup(app.trove, owner);

      const response = await as(app.trove, owner, 'put', '/api/v1/groups')
        .set('Content-Type', 'application/json')
        .send('{"name": "Broken"');

      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: expect.stringMatching(/^malformed JSON body/) });
      expect(await readGroup(app.trove, owner)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      const before = await readGroup(app.trove, owner);
      await expectUnauthenticated(app.trove, 'put', '/api/v1/groups', { name: 'Hijacked' });
      expect(await readGroup(app.trove, owner)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a member and to a viewer, and writes nothing', async () => {
      const before = await readGroup(app.trove, owner);

      const asMember = await update(member, { name: 'By member' });
      expect(asMember.status).toBe(403);
      expect(asMember.body).toEqual(OWNER_ONLY);

      const asViewer = await update(viewer, { name: 'By viewer', currency: 'EUR' });
      expect(asViewer.status).toBe(403);
      expect(asViewer.body).toEqual(OWNER_ONLY);

      expect(await readGroup(app.trove, owner)).toEqual(before);
      expect(await readGroup(app.trove, viewer)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 403 to a user of another group who names this group, and writes nothing', async () => {
      const before = await readGroup(app.trove, owner);

      const response = await update(outsider, { name: 'Taken over' }, owner.groupId);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
      expect(await readGroup(app.trove, owner)).toEqual(before);
    });

    it('changes only the caller’s own group', async () => {
      const before = await readGroup(app.trove, owner);

      const response = await update(outsider, { name: 'Eve Labs', currency: 'gbp' }).expect(200);

      expect(response.body).toEqual(groupShape(outsider.groupId, 'Eve Labs', 'GBP'));
      expect(await readGroup(app.trove, owner)).toEqual(before);
    });
  });
});
