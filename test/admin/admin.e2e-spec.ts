import { beforeAll, describe, expect, it } from 'vitest';
import { as, UNKNOWN_ID, useTestApp } from '../support/api.js';
import {
  BAD_TOKEN,
  expectUnauthenticated,
  validation,
  type Method,
} from '../support/auth-expectations.js';
import { signIn, signUp, signUpMember, uniqueEmail, type Session } from '../support/factories.js';

const ADMIN_EMAIL = uniqueEmail('root');
const NOT_ADMIN = { error: 'only instance administrators can do this' };

/** Creates an API key of the user and answers its token. */
async function apiKeyOf(trove: ReturnType<typeof useTestApp>['trove'], user: Session) {
  const created = await as(trove, user, 'post', '/api/v1/users/self/api-keys')
    .send({ name: 'script' })
    .expect(201);
  return `Bearer ${(created.body as { token: string }).token}`;
}

describe('instance administration: /api/v1/admin', () => {
  const app = useTestApp({
    TROVE_ADMIN_EMAILS: ` ${ADMIN_EMAIL.toUpperCase()} , other-admin@example.com`,
  });
  let admin: Session;
  let ada: Session;
  let viewer: Session;
  let grace: Session;

  beforeAll(async () => {
    admin = await signUp(app.trove, { name: 'Root', email: ADMIN_EMAIL });
    ada = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, ada, 'viewer');
    grace = await signUp(app.trove, { name: 'Grace', email: uniqueEmail('grace_x%') });
  });

  describe('success', () => {
    it('lists every user by name with their groups and whether they administer the instance', async () => {
      const response = await as(app.trove, admin, 'get', '/api/v1/admin/users').expect(200);
      const row = (user: Session, name: string, instanceAdmin = false) => ({
        id: user.id,
        name,
        email: user.email,
        disabled: false,
        instanceAdmin,
        groups: 1,
        createdAt: expect.any(String),
      });
      expect(response.body).toEqual({
        page: 1,
        pageSize: 50,
        total: 4,
        items: [
          row(ada, 'Ada'),
          row(grace, 'Grace'),
          row(admin, 'Root', true),
          row(viewer, 'Test User'),
        ],
      });
    });

    it('searches users by name or e-mail address, wildcards taken literally, and pages', async () => {
      const byName = await as(app.trove, admin, 'get', '/api/v1/admin/users?q=ada').expect(200);
      expect(byName.body.items.map((user: { id: string }) => user.id)).toEqual([ada.id]);
      const byEmail = await as(app.trove, admin, 'get', '/api/v1/admin/users')
        .query({ q: 'grace_x%' })
        .expect(200);
      expect(byEmail.body.items.map((user: { id: string }) => user.id)).toEqual([grace.id]);
      const wildcard = await as(app.trove, admin, 'get', '/api/v1/admin/users')
        .query({ q: '%' })
        .expect(200);
      expect(wildcard.body.items.map((user: { id: string }) => user.id)).toEqual([grace.id]);
      const second = await as(app.trove, admin, 'get', '/api/v1/admin/users')
        .query({ page: 2, pageSize: 3 })
        .expect(200);
      expect(second.body).toMatchObject({ page: 2, pageSize: 3, total: 4 });
      expect(second.body.items.map((user: { id: string }) => user.id)).toEqual([viewer.id]);
      const beyond = await as(app.trove, admin, 'get', '/api/v1/admin/users?page=9').expect(200);
      expect(beyond.body).toEqual({ page: 9, pageSize: 50, total: 4, items: [] });
    });

    it('lists every group by name with its member count', async () => {
      const response = await as(app.trove, admin, 'get', '/api/v1/admin/groups').expect(200);
      const group = (id: string, name: string, members: number) => ({
        id,
        name,
        members,
        createdAt: expect.any(String),
      });
      expect(response.body).toEqual({
        page: 1,
        pageSize: 50,
        total: 3,
        items: [
          group(ada.groupId, "Ada's Home", 2),
          group(grace.groupId, "Grace's Home", 1),
          group(admin.groupId, "Root's Home", 1),
        ],
      });
      const found = await as(app.trove, admin, 'get', '/api/v1/admin/groups?q=GRACE').expect(200);
      expect(found.body).toEqual({
        page: 1,
        pageSize: 50,
        total: 1,
        items: [group(grace.groupId, "Grace's Home", 1)],
      });
    });

    it('tells how people get in, without secrets', async () => {
      const response = await as(app.trove, admin, 'get', '/api/v1/admin/status').expect(200);
      expect(response.body).toEqual({
        sso: { configured: false, issuer: null, sharedGroup: null },
        scim: { configured: false },
        localLogin: true,
        registration: true,
        adminEmails: 2,
      });
    });

    it('disabling ends the user’s session and API key at once; enabling lets them sign in again', async () => {
      const user = await signUp(app.trove, { name: 'Lee' });
      const key = await apiKeyOf(app.trove, user);
      await app.trove.http.get('/api/v1/users/self').set('Authorization', key).expect(200);
      await as(app.trove, user, 'get', '/api/v1/users/self').expect(200);

      const disabled = await as(app.trove, admin, 'post', `/api/v1/admin/users/${user.id}/disable`);
      expect([disabled.status, disabled.text]).toEqual([204, '']);
      for (const authorization of [user.authorization, key]) {
        const refused = await app.trove.http
          .get('/api/v1/users/self')
          .set('Authorization', authorization);
        expect([refused.status, refused.body]).toEqual([401, BAD_TOKEN]);
      }
      await app.trove.http
        .post('/api/v1/users/login')
        .send({ username: user.email, password: user.password })
        .expect(403);
      const listed = await as(app.trove, admin, 'get', '/api/v1/admin/users?q=Lee').expect(200);
      expect(listed.body.items).toEqual([expect.objectContaining({ id: user.id, disabled: true })]);
      const members = await as(app.trove, admin, 'get', '/api/v1/admin/users?q=Lee').expect(200);
      expect(members.body.total).toBe(1);

      // Disabling again changes nothing.
      await as(app.trove, admin, 'post', `/api/v1/admin/users/${user.id}/disable`).expect(204);
      const enabled = await as(app.trove, admin, 'post', `/api/v1/admin/users/${user.id}/enable`);
      expect([enabled.status, enabled.text]).toEqual([204, '']);
      // The ended credentials stay ended; a new sign-in works.
      await app.trove.http.get('/api/v1/users/self').set('Authorization', key).expect(401);
      await as(app.trove, user, 'get', '/api/v1/users/self').expect(401);
      const again = await signIn(app.trove, user.email, user.password);
      await app.trove.http
        .get('/api/v1/users/self')
        .set('Authorization', again.authorization)
        .expect(200);
    });

    it('admits an instance administrator by API key too', async () => {
      const key = await apiKeyOf(app.trove, admin);
      await app.trove.http.get('/api/v1/admin/status').set('Authorization', key).expect(200);
    });
  });

  describe('bad input', () => {
    it('refuses to disable the caller’s own account', async () => {
      const response = await as(
        app.trove,
        admin,
        'post',
        `/api/v1/admin/users/${admin.id}/disable`,
      );
      expect([response.status, response.body]).toEqual([
        409,
        { error: 'you cannot disable your own account; ask another instance administrator' },
      ]);
      await as(app.trove, admin, 'get', '/api/v1/users/self').expect(200);
    });

    it('answers 404 for an unknown user and 400 for an id that is none', async () => {
      for (const action of ['disable', 'enable']) {
        const unknown = await as(
          app.trove,
          admin,
          'post',
          `/api/v1/admin/users/${UNKNOWN_ID}/${action}`,
        );
        expect([unknown.status, unknown.body]).toEqual([
          404,
          { error: `user ${UNKNOWN_ID} not found` },
        ]);
        await as(app.trove, admin, 'post', `/api/v1/admin/users/nope/${action}`).expect(400);
      }
    });

    it('refuses bad paging and over-long searches', async () => {
      const response = await as(app.trove, admin, 'get', '/api/v1/admin/users')
        .query({ page: 0, pageSize: 101, q: 'x'.repeat(256) })
        .expect(422);
      expect(response.body).toEqual(
        validation({
          page: 'page must not be less than 1',
          pageSize: 'pageSize must not be greater than 100',
          q: 'q must be shorter than or equal to 255 characters',
        }),
      );
      await as(app.trove, admin, 'get', '/api/v1/admin/groups?pageSize=abc').expect(422);
    });
  });

  describe('who may', () => {
    const routes: [Method, string][] = [
      ['get', '/api/v1/admin/users'],
      ['get', '/api/v1/admin/groups'],
      ['get', '/api/v1/admin/status'],
      ['post', `/api/v1/admin/users/${UNKNOWN_ID}/disable`],
      ['post', `/api/v1/admin/users/${UNKNOWN_ID}/enable`],
    ];

    it('answers 401 without a token or with a bad one', async () => {
      for (const [method, path] of routes) await expectUnauthenticated(app.trove, method, path);
    });

    it('answers 403 to group owners, members and viewers who do not administer the instance', async () => {
      for (const [method, path] of routes) {
        for (const caller of [ada, viewer, grace]) {
          const response = await as(app.trove, caller, method, path);
          expect([method, path, response.status, response.body]).toEqual([
            method,
            path,
            403,
            NOT_ADMIN,
          ]);
        }
      }
      const refused = await as(app.trove, ada, 'post', `/api/v1/admin/users/${grace.id}/disable`);
      expect(refused.status).toBe(403);
      await as(app.trove, grace, 'get', '/api/v1/users/self').expect(200);
    });

    it('refuses the attachment token', async () => {
      const response = await app.trove.http
        .get('/api/v1/admin/status')
        .query({ access_token: admin.attachmentToken });
      expect([response.status, response.body]).toEqual([403, { error: 'Forbidden' }]);
    });
  });
});
