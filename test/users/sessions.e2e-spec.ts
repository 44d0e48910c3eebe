import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signIn, signUp } from '../support/factories.js';

describe('sessions: refresh, logout, logout everywhere', () => {
  const app = useTestApp();
  beforeAll(async () => {});

  const self = (authorization: string) =>
    app.trove.http.get('/api/v1/users/self').set('Authorization', authorization);

  it('GET /users/refresh issues a new 7-day token and ends the old one', async () => {
    const user = await signUp(app.trove);
    const response = await app.trove.http
      .get('/api/v1/users/refresh')
      .set('Authorization', user.authorization)
      .expect(200);
    expect(response.body).toEqual({
      raw: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      attachmentToken: expect.any(String),
      expiresAt: expect.any(String),
    });
    expect(response.headers['set-cookie']).toEqual(
      expect.arrayContaining([expect.stringMatching(/^hb\.auth\.remember=false/)]),
    );
    await self(`Bearer ${response.body.raw}`).expect(200);
    await self(user.authorization).expect(401, { error: 'valid authorization token is required' });
  });

  it('POST /users/logout ends only the presenting session and clears the cookies', async () => {
    const user = await signUp(app.trove);
    const other = await signIn(app.trove, user.email, user.password);
    const response = await app.trove.http
      .post('/api/v1/users/logout')
      .set('Authorization', user.authorization)
      .expect(204);
    expect(response.headers['set-cookie']).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^hb\.auth\.token=; .*Expires=Thu, 01 Jan 1970/),
      ]),
    );
    await self(user.authorization).expect(401);
    await self(other.authorization).expect(200);
  });

  it('POST /users/logout/all ends every session of the user, attachment tokens too', async () => {
    const user = await signUp(app.trove);
    const other = await signIn(app.trove, user.email, user.password);
    const stranger = await signUp(app.trove);
    await app.trove.http
      .post('/api/v1/users/logout/all')
      .set('Authorization', user.authorization)
      .expect(204);
    await self(user.authorization).expect(401);
    await self(other.authorization).expect(401);
    await self(stranger.authorization).expect(200);
    const rows = await app.trove.query('SELECT id FROM auth_tokens WHERE user_id = $1', [user.id]);
    expect(rows).toEqual([]);
  });

  it('refuse API keys where they make no sense, and need a token', async () => {
    const user = await signUp(app.trove);
    const key = await app.trove.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', user.authorization)
      .send({ name: 'script' })
      .expect(201);
    await app.trove.http
      .get('/api/v1/users/refresh')
      .set('Authorization', key.body.token)
      .expect(400, { error: 'API keys do not require refresh' });
    const logout = await app.trove.http
      .post('/api/v1/users/logout')
      .set('Authorization', key.body.token)
      .expect(400);
    expect(logout.body.error).toMatch(/^API keys cannot be logged out/);
    await app.trove.http.post('/api/v1/users/logout').expect(401);
    await app.trove.http
      .get('/api/v1/users/refresh')
      .set('Authorization', 'Bearer junk')
      .expect(401);
  });
});
