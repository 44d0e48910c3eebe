import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  BAD_TENANT,
  expectUnauthenticated,
  memberShape,
  NO_ACCESS,
  readMembers,
} from './group-helpers.js';

describe('GET /api/v1/groups/members', () => {
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

  const byName = <T extends { name: string; id: string }>(list: T[]): T[] =>
    [...list].sort((a, b) =>
      a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1,
    );

  describe('success', () => {
    it('answers 200 with every member, their e-mail address, role and state, and nothing more', async () => {
      const response = await as(app.trove, owner, 'get', '/api/v1/groups/members').expect(200);

      const expected = byName([
        memberShape(owner, 'owner'),
        memberShape(member, 'user'),
        memberShape(viewer, 'viewer'),
      ]);
      expect(response.body).toEqual(expected);
      for (const item of response.body as object[]) {
        expect(Object.keys(item).sort()).toEqual(['disabled', 'email', 'id', 'name', 'role']);
      }
    });

    it('lets members and viewers read the same list', async () => {
      const expected = await readMembers(app.trove, owner);
      expect(await readMembers(app.trove, member)).toEqual(expected);
      expect(await readMembers(app.trove, viewer)).toEqual(expected);
    });
  });

  describe('bad input', () => {
    it('answers 400 for a tenant that is not a UUID', async () => {
      const response = await as(app.trove, owner, 'get', '/api/v1/groups/members', '1234');
      expect(response.status).toBe(400);
      expect(response.body).toEqual(BAD_TENANT);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', '/api/v1/groups/members');
    });
  });

  describe('another group', () => {
    it('answers 403 to a user of another group who names this group', async () => {
      const response = await as(
        app.trove,
        outsider,
        'get',
        '/api/v1/groups/members',
        owner.groupId,
      );
      expect(response.status).toBe(403);
      expect(response.body).toEqual(NO_ACCESS);
    });

    it('shows a user of another group only their own group’s members', async () => {
      expect(await readMembers(app.trove, outsider)).toEqual([memberShape(outsider, 'owner')]);
    });
  });
});
