import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, uniqueEmail, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const cookiesOf = (header: string | string[] | undefined): Record<string, string> =>
  Object.fromEntries(
    (Array.isArray(header) ? header : header ? [header] : []).map((cookie) => {
      const [pair, ...attributes] = cookie.split('; ');
      const [name, value] = pair.split('=');
      return [name, [value, ...attributes].join('; ')];
    }),
  );

describe('POST /api/v1/users/login', () => {
  let trove: TestApp;
  let user: Session;

  beforeAll(async () => {
    trove = await createTestApp();
    user = await signUp(trove, { password: 'correct horse' });
  });
  afterAll(() => trove.close());

  it('answers 200 with a bearer token, an attachment token, the expiry, and the web UI cookies', async () => {
    const before = Date.now();
    const response = await trove.http
      .post('/api/v1/users/login')
      .send({ username: user.email.toUpperCase(), password: 'correct horse' })
      .expect(200);
    expect(response.body).toEqual({
      token: expect.stringMatching(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/),
      attachmentToken: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      expiresAt: expect.any(String),
    });
    const lifetime = Date.parse(response.body.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(6.9 * 86400_000);
    expect(lifetime).toBeLessThan(7.1 * 86400_000);

    const cookies = cookiesOf(response.headers['set-cookie']);
    const raw = response.body.token.replace('Bearer ', '');
    expect(cookies['hb.auth.token']).toMatch(new RegExp(`^${raw}; .*HttpOnly`));
    expect(cookies['hb.auth.remember']).toMatch(/^true; .*HttpOnly/);
    expect(cookies['hb.auth.session']).toMatch(/^true; /);
    expect(cookies['hb.auth.session']).not.toMatch(/HttpOnly/);
    expect(cookies['hb.auth.attachment_token']).toMatch(
      new RegExp(`^${response.body.attachmentToken}; `),
    );
    expect(cookies['hb.auth.token']).toMatch(/SameSite=Lax/);

    await trove.http
      .get('/api/v1/users/self')
      .set('Authorization', response.body.token)
      .expect(200);
  });

  it('gives a 28-day session with stayLoggedIn', async () => {
    const response = await trove.http
      .post('/api/v1/users/login')
      .send({ username: user.email, password: 'correct horse', stayLoggedIn: true })
      .expect(200);
    expect(Date.parse(response.body.expiresAt) - Date.now()).toBeGreaterThan(27.9 * 86400_000);
  });

  it('accepts a form body and JSON with a charset parameter', async () => {
    await trove.http
      .post('/api/v1/users/login')
      .type('form')
      .send({ username: user.email, password: 'correct horse', stayLoggedIn: 'true' })
      .expect(200);
    await trove.http
      .post('/api/v1/users/login')
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ username: user.email, password: 'correct horse' }))
      .expect(200);
  });

  it('gives an unknown user and a wrong password the same 401', async () => {
    const wrong = await trove.http
      .post('/api/v1/users/login')
      .send({ username: user.email, password: 'wrong password' })
      .expect(401);
    const unknown = await trove.http
      .post('/api/v1/users/login')
      .send({ username: uniqueEmail(), password: 'wrong password' })
      .expect(401);
    expect(wrong.body).toEqual({ error: 'unauthorized' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('refuses missing fields with 422 and an unknown provider with 400', async () => {
    const response = await trove.http.post('/api/v1/users/login').send({}).expect(422);
    expect(Object.keys(response.body.fields)).toEqual(['username', 'password']);
    await trove.http
      .post('/api/v1/users/login')
      .query({ provider: 'ldap' })
      .send({ username: user.email, password: 'correct horse' })
      .expect(400, { error: 'invalid auth provider' });
  });
});

describe('sign-in throttling', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp({
      TROVE_AUTH_RATE_LIMIT_MAX_ATTEMPTS: '3',
      TROVE_AUTH_RATE_LIMIT_BASE_BACKOFF: '30',
    });
  });
  afterAll(() => trove.close());

  const attempt = (username: string, password: string, address = '10.0.0.1') =>
    trove.http
      .post('/api/v1/users/login')
      .set('X-Forwarded-For', address)
      .send({ username, password });

  it('locks an account after repeated failures, with Retry-After, even for the right password', async () => {
    const user = await signUp(trove, { password: 'correct horse' });
    for (let i = 0; i < 3; i++) await attempt(user.email, 'wrong password').expect(401);
    const locked = await attempt(user.email, 'correct horse').expect(429);
    expect(locked.body).toEqual({ error: 'too many authentication attempts' });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(30);
  });

  it('clears the count after a successful sign-in', async () => {
    const user = await signUp(trove, { password: 'correct horse' });
    for (let i = 0; i < 2; i++) await attempt(user.email, 'wrong password').expect(401);
    await attempt(user.email, 'correct horse').expect(200);
    for (let i = 0; i < 2; i++) await attempt(user.email, 'wrong password').expect(401);
    await attempt(user.email, 'correct horse').expect(200);
  });

  it('keeps the count in the database, so every instance sees it', async () => {
    const user = await signUp(trove, { password: 'correct horse' });
    await attempt(user.email, 'wrong password').expect(401);
    const rows = await trove.query<{ key: string; failures: number }>(
      'SELECT key, failures FROM login_attempts WHERE key = $1',
      [`account:${user.email}`],
    );
    expect(rows).toEqual([{ key: `account:${user.email}`, failures: 1 }]);
  });
});
