import { beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_ID, useTestApp } from '../support/api.js';
import { signIn, signUp, signUpMember } from '../support/factories.js';

const jwtId = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { jti: string }).jti;

const BAD_TOKEN = { error: 'valid authorization token is required' };

describe('own sessions: /api/v1/users/self/sessions', () => {
  const app = useTestApp();
  beforeAll(async () => {});

  const self = (authorization: string) =>
    app.trove.http.get('/api/v1/users/self').set('Authorization', authorization);
  const list = (authorization: string) =>
    app.trove.http.get('/api/v1/users/self/sessions').set('Authorization', authorization);
  const end = (authorization: string, id: string) =>
    app.trove.http.delete(`/api/v1/users/self/sessions/${id}`).set('Authorization', authorization);
  const storedCount = async (userId: string): Promise<number> =>
    (await app.trove.query('SELECT id FROM auth_tokens WHERE user_id = $1', [userId])).length;

  it('GET lists the caller’s unexpired sessions, newest first, the calling one current', async () => {
    const user = await signUp(app.trove);
    const other = await signIn(app.trove, user.email, user.password);
    const stranger = await signUp(app.trove);
    const response = await list(user.authorization).expect(200);
    expect(response.body).toEqual([
      {
        id: jwtId(other.token),
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        signIn: 'password',
        current: false,
      },
      {
        id: jwtId(user.token),
        createdAt: expect.any(String),
        expiresAt: expect.any(String),
        signIn: 'password',
        current: true,
      },
    ]);
    const [rows] = await app.trove.query<{ created_at: Date; expires_at: Date }>(
      'SELECT created_at, expires_at FROM auth_tokens WHERE id = $1',
      [jwtId(user.token)],
    );
    expect(response.body[1]).toMatchObject({
      createdAt: rows.created_at.toISOString(),
      expiresAt: rows.expires_at.toISOString(),
    });
    const seenByOther = await list(other.authorization).expect(200);
    expect(seenByOther.body.map((s: { current: boolean }) => s.current)).toEqual([true, false]);
    const seenByStranger = await list(stranger.authorization).expect(200);
    expect(seenByStranger.body).toEqual([
      expect.objectContaining({ id: jwtId(stranger.token), current: true }),
    ]);
  });

  it('GET leaves out expired sessions and marks single sign-on ones; with an API key none is current', async () => {
    const user = await signUp(app.trove);
    const expired = await signIn(app.trove, user.email, user.password);
    const sso = await signIn(app.trove, user.email, user.password);
    await app.trove.query(
      `UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [jwtId(expired.token)],
    );
    await app.trove.query(`UPDATE auth_tokens SET single_sign_on = true WHERE id = $1`, [
      jwtId(sso.token),
    ]);
    const key = await app.trove.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', user.authorization)
      .send({ name: 'script' })
      .expect(201);
    const response = await list(key.body.token).expect(200);
    expect(response.body).toEqual([
      expect.objectContaining({ id: jwtId(sso.token), signIn: 'singleSignOn', current: false }),
      expect.objectContaining({ id: jwtId(user.token), signIn: 'password', current: false }),
    ]);
  });

  it('a viewer lists and ends their own sessions too', async () => {
    const owner = await signUp(app.trove);
    const viewer = await signUpMember(app.trove, owner, 'viewer');
    const other = await signIn(app.trove, viewer.email, viewer.password);
    await list(viewer.authorization).expect(200);
    await end(viewer.authorization, jwtId(other.token)).expect(204);
    await self(other.authorization).expect(401, BAD_TOKEN);
    await self(viewer.authorization).expect(200);
  });

  it('DELETE ends that session and its attachment token at once; the others stay', async () => {
    const user = await signUp(app.trove);
    const other = await signIn(app.trove, user.email, user.password);
    await self(other.authorization).expect(200);
    const response = await end(user.authorization, jwtId(other.token)).expect(204);
    expect(response.text).toBe('');
    await self(other.authorization).expect(401, BAD_TOKEN);
    await app.trove.http
      .get('/api/v1/users/self/sessions')
      .query({ access_token: other.attachmentToken })
      .expect(401, BAD_TOKEN);
    await self(user.authorization).expect(200);
    const rows = await app.trove.query<{ id: string }>(
      'SELECT id FROM auth_tokens WHERE user_id = $1 ORDER BY id',
      [user.id],
    );
    expect(rows.map((row) => row.id).sort()).toEqual(
      [jwtId(user.token), jwtId(user.attachmentToken)].sort(),
    );
    const left = await list(user.authorization).expect(200);
    expect(left.body).toEqual([expect.objectContaining({ id: jwtId(user.token), current: true })]);
  });

  it('DELETE of the calling session ends it like logout', async () => {
    const user = await signUp(app.trove);
    await end(user.authorization, jwtId(user.token)).expect(204);
    await self(user.authorization).expect(401, BAD_TOKEN);
  });

  it('DELETE refuses a bad id (400), an unknown one, an attachment token’s and another user’s (404), ending nothing', async () => {
    const user = await signUp(app.trove);
    const stranger = await signUp(app.trove);
    await end(user.authorization, 'not-a-uuid').expect(400, { error: 'invalid route key: id' });
    await end(user.authorization, UNKNOWN_ID).expect(404, {
      error: `session ${UNKNOWN_ID} not found`,
    });
    const attachmentId = jwtId(user.attachmentToken);
    await end(user.authorization, attachmentId).expect(404, {
      error: `session ${attachmentId} not found`,
    });
    const theirs = jwtId(stranger.token);
    await end(user.authorization, theirs).expect(404, { error: `session ${theirs} not found` });
    await self(stranger.authorization).expect(200);
    await self(user.authorization).expect(200);
    expect(await storedCount(stranger.id)).toBe(2);
    expect(await storedCount(user.id)).toBe(2);
  });

  it('answers 401 without a token or with a bad one, ending nothing', async () => {
    const user = await signUp(app.trove);
    const id = jwtId(user.token);
    await app.trove.http
      .get('/api/v1/users/self/sessions')
      .expect(401, { error: 'authorization header or query is required' });
    await app.trove.http.delete(`/api/v1/users/self/sessions/${id}`).expect(401);
    await list('Bearer not.a.token').expect(401, BAD_TOKEN);
    await end('Bearer not.a.token', id).expect(401, BAD_TOKEN);
    await self(user.authorization).expect(200);
    expect(await storedCount(user.id)).toBe(2);
  });
});
