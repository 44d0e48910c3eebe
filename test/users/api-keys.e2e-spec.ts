import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp } from '../support/factories.js';

describe('API keys: /api/v1/users/self/api-keys', () => {
  const app = useTestApp();
  beforeAll(async () => {});

  it('POST creates a key shown once; it works as the Authorization header and records its use', async () => {
    const user = await signUp(app.trove);
    const created = await app.trove.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', user.authorization)
      .send({ name: 'backup script' })
      .expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      userId: user.id,
      name: 'backup script',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      lastUsedAt: null,
      token: expect.stringMatching(/^trove_[\w-]{43}$/),
    });
    expect(Date.parse(created.body.expiresAt) - Date.now()).toBeGreaterThan(29 * 86400_000);

    const me = await app.trove.http
      .get('/api/v1/users/self')
      .set('Authorization', created.body.token)
      .expect(200);
    expect(me.body.item.id).toBe(user.id);
    await app.trove.http
      .get('/api/v1/groups')
      .set('Authorization', `Bearer ${created.body.token}`)
      .expect(200);
    await app.trove.http
      .get('/api/v1/users/self')
      .query({ access_token: created.body.token })
      .expect(401);

    const list = await app.trove.http
      .get('/api/v1/users/self/api-keys')
      .set('Authorization', user.authorization)
      .expect(200);
    expect(list.body).toEqual([
      {
        id: created.body.id,
        userId: user.id,
        name: 'backup script',
        createdAt: created.body.createdAt,
        expiresAt: created.body.expiresAt,
        lastUsedAt: expect.any(String),
      },
    ]);
    const [stored] = await app.trove.query<{ key_hash: Buffer }>(
      'SELECT key_hash FROM api_keys WHERE id = $1',
      [created.body.id],
    );
    expect(stored.key_hash.toString('utf8')).not.toContain(created.body.token);
  });

  it('POST accepts a key without expiry and refuses bad input, writing nothing', async () => {
    const user = await signUp(app.trove);
    const forever = await app.trove.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', user.authorization)
      .send({ name: 'forever', expiresAt: null })
      .expect(201);
    expect(forever.body.expiresAt).toBeNull();
    const bad = await app.trove.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', user.authorization)
      .send({ name: '', expiresAt: 'tomorrow' })
      .expect(422);
    expect(Object.keys(bad.body.fields)).toEqual(['name', 'expiresAt']);
    const rows = await app.trove.query('SELECT id FROM api_keys WHERE user_id = $1', [user.id]);
    expect(rows).toHaveLength(1);
  });

  it('an expired key is refused', async () => {
    const user = await signUp(app.trove);
    const created = await app.trove.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', user.authorization)
      .send({ name: 'short-lived', expiresAt: new Date(Date.now() + 60_000).toISOString() })
      .expect(201);
    await app.trove.query(
      `UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [created.body.id],
    );
    await app.trove.http
      .get('/api/v1/users/self')
      .set('Authorization', created.body.token)
      .expect(401, { error: 'valid authorization token is required' });
  });

  it('DELETE revokes the key; another user can neither see nor delete it', async () => {
    const user = await signUp(app.trove);
    const stranger = await signUp(app.trove);
    const created = await app.trove.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', user.authorization)
      .send({ name: 'mine' })
      .expect(201);
    const theirs = await app.trove.http
      .get('/api/v1/users/self/api-keys')
      .set('Authorization', stranger.authorization)
      .expect(200);
    expect(theirs.body).toEqual([]);
    await app.trove.http
      .delete(`/api/v1/users/self/api-keys/${created.body.id}`)
      .set('Authorization', stranger.authorization)
      .expect(404, { error: `API key ${created.body.id} not found` });
    await app.trove.http
      .get('/api/v1/users/self')
      .set('Authorization', created.body.token)
      .expect(200);

    await app.trove.http
      .delete(`/api/v1/users/self/api-keys/${created.body.id}`)
      .set('Authorization', user.authorization)
      .expect(204);
    await app.trove.http
      .get('/api/v1/users/self')
      .set('Authorization', created.body.token)
      .expect(401);
    await app.trove.http
      .delete('/api/v1/users/self/api-keys/not-a-uuid')
      .set('Authorization', user.authorization)
      .expect(400, { error: 'invalid route key: id' });
  });

  it('survive a password change and logout everywhere', async () => {
    const user = await signUp(app.trove, { password: 'old password' });
    const created = await app.trove.http
      .post('/api/v1/users/self/api-keys')
      .set('Authorization', user.authorization)
      .send({ name: 'cron' })
      .expect(201);
    await app.trove.http
      .put('/api/v1/users/change-password')
      .set('Authorization', user.authorization)
      .send({ current: 'old password', new: 'new password' })
      .expect(204);
    await app.trove.http
      .post('/api/v1/users/logout/all')
      .set('Authorization', user.authorization)
      .expect(204);
    await app.trove.http
      .get('/api/v1/users/self')
      .set('Authorization', created.body.token)
      .expect(200);
  });
});
