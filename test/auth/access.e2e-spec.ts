import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { collectRoutes, fillPath } from '../support/routes.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** Trove's own pages (outside `/api` and `/scim`) answer as pages: HTML, and sign-in redirects. */
const isPage = (path: string): boolean => !path.startsWith('/api/') && !path.startsWith('/scim/');

const send = (trove: TestApp, method: string, path: string) =>
  (trove.http as unknown as Record<string, (url: string) => ReturnType<TestApp['http']['get']>>)[
    method.toLowerCase()
  ](path);

describe('access control across every route', () => {
  let trove: TestApp;
  let owner: Session;
  let viewer: Session;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove, { name: 'Owner' });
    viewer = await signUpMember(trove, owner, 'viewer');
  });
  afterAll(() => trove.close());

  it('refuses a viewer on every write route of every module, before anything runs', async () => {
    const writes = collectRoutes(trove.app).filter(
      (route) => !route.public && !route.userScope && !route.roles.includes('viewer'),
    );
    expect(writes.length).toBeGreaterThan(3);
    const before = await trove.query(
      'SELECT (SELECT count(*) FROM group_invitation_tokens) AS invitations, (SELECT updated_at FROM groups WHERE id = $1) AS group_updated',
      [owner.groupId],
    );
    for (const route of writes) {
      const response = await send(trove, route.method, fillPath(route.path, randomUUID()))
        .set('Authorization', viewer.authorization)
        .set('Origin', trove.baseUrl)
        .send({ name: 'changed', uses: 5, role: 'owner' });
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
      });
      const refusal =
        /^(viewers of this collection can only read|only the owner of this collection can perform this action)$/;
      if (isPage(route.path)) {
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(/role="alert">([^<]*)</.exec(response.text)?.[1]).toMatch(refusal);
      } else {
        expect(response.body).toEqual({ error: expect.stringMatching(refusal) });
      }
    }
    const after = await trove.query(
      'SELECT (SELECT count(*) FROM group_invitation_tokens) AS invitations, (SELECT updated_at FROM groups WHERE id = $1) AS group_updated',
      [owner.groupId],
    );
    expect(after).toEqual(before);
  });

  it('lets a viewer read', async () => {
    const response = await trove.http
      .get('/api/v1/groups')
      .set('Authorization', viewer.authorization)
      .expect(200);
    expect(response.body.id).toBe(owner.groupId);
  });

  it('accepts the attachment token nowhere but on routes that allow it', async () => {
    const routes = collectRoutes(trove.app).filter(
      (route) => !route.public && !route.attachmentToken,
    );
    for (const route of routes) {
      const response = await send(trove, route.method, fillPath(route.path, randomUUID()))
        .query({ access_token: owner.attachmentToken })
        .set('Origin', trove.baseUrl)
        .send({});
      expect({
        route: `${route.method} ${route.path}`,
        status: response.status,
        body: isPage(route.path) ? /role="alert">([^<]*)</.exec(response.text)?.[1] : response.body,
      }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
        body: isPage(route.path) ? 'Forbidden' : { error: 'Forbidden' },
      });
    }
  });

  it('refuses every non-public route without a token or with a bad one', async () => {
    const routes = collectRoutes(trove.app).filter((route) => !route.public);
    for (const route of routes) {
      const path = fillPath(route.path, randomUUID());
      if (isPage(route.path)) {
        // A page sends a signed-out browser to the sign-in page, which brings it back; a form
        // post says that the session has ended.
        for (const authorization of [undefined, 'Bearer nonsense']) {
          const request = send(trove, route.method, path).set('Origin', trove.baseUrl);
          if (authorization) void request.set('Authorization', authorization);
          const response = await request.send({});
          if (route.method === 'GET') {
            expect([route.path, response.status, response.headers.location]).toEqual([
              route.path,
              302,
              `/sign-in?next=${encodeURIComponent(path)}`,
            ]);
          } else {
            expect([route.path, response.status]).toEqual([route.path, 401]);
            expect(response.text).toContain('Your session has ended.');
          }
        }
        continue;
      }
      const none = await send(trove, route.method, path).send({});
      expect([route.path, none.status, none.body]).toEqual([
        route.path,
        401,
        { error: 'authorization header or query is required' },
      ]);
      const bad = await send(trove, route.method, path)
        .set('Authorization', 'Bearer nonsense')
        .send({});
      expect([route.path, bad.status, bad.body]).toEqual([
        route.path,
        401,
        { error: 'valid authorization token is required' },
      ]);
    }
  });
});

describe('tokens', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp();
  });
  afterAll(() => trove.close());

  const self = (authorization: string) =>
    trove.http.get('/api/v1/users/self').set('Authorization', authorization);

  it('accept the token with or without "Bearer ", in a cookie, or as ?access_token=', async () => {
    const user = await signUp(trove);
    await self(user.authorization).expect(200);
    await self(user.token).expect(200);
    await trove.http
      .get('/api/v1/users/self')
      .set('Cookie', [`hb.auth.token=${user.token}`, 'hb.auth.remember=true'])
      .expect(200);
    await trove.http.get('/api/v1/users/self').query({ access_token: user.token }).expect(200);
  });

  it('refuse a token whose stored row has expired', async () => {
    const user = await signUp(trove);
    await trove.query(
      `UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [user.id],
    );
    await self(user.authorization).expect(401, { error: 'valid authorization token is required' });
  });

  it('refuse a token signed with another key, an unsigned one, or an expired signature', async () => {
    const user = await signUp(trove);
    const claims = jwt.decode(user.token) as { sub: string; jti: string };
    const forged = jwt.sign({ typ: 'session' }, 'x'.repeat(32), {
      subject: claims.sub,
      jwtid: claims.jti,
      issuer: 'trove',
      audience: 'trove',
      expiresIn: 3600,
    });
    await self(`Bearer ${forged}`).expect(401);
    const unsigned = jwt.sign(
      { typ: 'session', sub: claims.sub, jti: claims.jti, iss: 'trove', aud: 'trove' },
      '',
      {
        algorithm: 'none',
      },
    );
    await self(`Bearer ${unsigned}`).expect(401);
    const [{ value }] = await trove.query<{ value: Buffer }>(
      `SELECT value FROM server_secrets WHERE name = 'token-signing-key'`,
    );
    const stale = jwt.sign({ typ: 'session', exp: Math.floor(Date.now() / 1000) - 10 }, value, {
      subject: claims.sub,
      jwtid: claims.jti,
      issuer: 'trove',
      audience: 'trove',
    });
    await self(`Bearer ${stale}`).expect(401);
    await self(user.authorization).expect(200);
  });

  it('never show password or token hashes', async () => {
    const user = await signUp(trove);
    const responses = await Promise.all([
      self(user.authorization),
      trove.http.get('/api/v1/groups/members').set('Authorization', user.authorization),
      trove.http.get('/api/v1/users/self/api-keys').set('Authorization', user.authorization),
    ]);
    const [{ password_hash: hash }] = await trove.query<{ password_hash: string }>(
      'SELECT password_hash FROM users WHERE id = $1',
      [user.id],
    );
    for (const response of responses) {
      expect(response.status).toBe(200);
      const text = JSON.stringify(response.body);
      expect(text).not.toContain(hash);
      expect(text).not.toMatch(/hash|password/i);
    }
  });

  it('give a user who belongs to no group their own account but no group data', async () => {
    const owner = await signUp(trove);
    const member = await signUpMember(trove, owner);
    await trove.http
      .delete(`/api/v1/groups/members/${member.id}`)
      .set('Authorization', owner.authorization)
      .expect(204);
    const me = await self(member.authorization).expect(200);
    expect(me.body.item).toMatchObject({ defaultGroupId: null, groupIds: [] });
    await trove.http
      .get('/api/v1/groups')
      .set('Authorization', member.authorization)
      .expect(403, { error: 'you are not a member of any group' });
  });
});
