import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';

/** JSON text of `levels` arrays inside each other around `"x"`. */
const nestedArrays = (levels: number): string => `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;

const TOO_DEEP = { error: 'request body nests deeper than 32 levels' };

describe('request bodies nested too deeply', () => {
  const t = useSharedApp();

  it('refuses a login body nested 2,000 levels with a 400 and issues no token', async () => {
    const response = await t.trove.http
      .post('/api/v1/users/login')
      .set('Content-Type', 'application/json')
      .send(`{"username": ${nestedArrays(2000)}, "password": "x"}`)
      .expect(400);
    expect(response.body).toEqual(TOO_DEEP);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses deep bodies on every route before any handler, with or without a token', async () => {
    const deep = `{"name": ${nestedArrays(2000)}}`;
    for (const [method, path] of [
      ['post', '/api/v1/users/register'],
      ['post', '/api/v1/entities'],
      ['put', '/api/v1/users/self/settings'],
      ['post', '/api/v1/tags'],
    ] as const) {
      const response = await t.trove.http[method](path)
        .set('Authorization', t.owner.authorization)
        .set('Content-Type', 'application/json')
        .send(deep);
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(response.body).toEqual(TOO_DEEP);
    }
    const settings = await t.trove.http
      .get('/api/v1/users/self/settings')
      .set('Authorization', t.owner.authorization)
      .expect(200);
    expect(settings.body).toEqual({ item: null });
  });

  it('counts objects and arrays alike, and allows exactly 32 levels', async () => {
    // The body object is level 1, so 31 more arrays make 32 levels: accepted by the limit and
    // refused by the login's own validation.
    const atLimit = await t.trove.http
      .post('/api/v1/users/login')
      .set('Content-Type', 'application/json')
      .send(`{"username": ${nestedArrays(31)}, "password": "x"}`);
    expect(atLimit.status).toBe(422);
    let objects = '"x"';
    for (let level = 0; level < 32; level += 1) objects = `{"a": ${objects}}`;
    await t.trove.http
      .post('/api/v1/users/login')
      .set('Content-Type', 'application/json')
      .send(`{"username": ${objects}, "password": "x"}`)
      .expect(400, TOO_DEEP);
  });

  it('refuses a body that is nothing but nesting, up to the body size limit', async () => {
    await t.trove.http
      .post('/api/v1/users/login')
      .set('Content-Type', 'application/json')
      .send(nestedArrays(500_000))
      .expect(400, TOO_DEEP);
  });

  it('stays healthy afterwards', async () => {
    await t.trove.http.get('/api/v1/health/ready').expect(200);
    await t.trove.http
      .post('/api/v1/users/login')
      .send({ username: t.owner.email, password: t.owner.password })
      .expect(200);
  });
});
