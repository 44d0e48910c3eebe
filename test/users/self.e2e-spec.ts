import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, uniqueEmail } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** `levels` arrays inside each other around a number. */
const nestedArrays = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level += 1) value = [value];
  return value;
};

describe('the caller’s account: /api/v1/users/self', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp();
  });
  afterAll(() => trove.close());

  it('PUT changes name and e-mail and answers the whole user', async () => {
    const user = await signUp(trove, { name: 'Before' });
    const email = uniqueEmail('after');
    const response = await trove.http
      .put('/api/v1/users/self')
      .set('Authorization', user.authorization)
      .send({ name: 'After', email: email.toUpperCase(), isSuperuser: true, id: 'x' })
      .expect(200);
    expect(response.body).toEqual({
      item: {
        id: user.id,
        name: 'After',
        email,
        isSuperuser: false,
        defaultGroupId: user.groupId,
        groupIds: [user.groupId],
        oidcIssuer: null,
        oidcSubject: null,
      },
    });
  });

  it('PUT refuses bad input and a taken e-mail, changing nothing', async () => {
    const user = await signUp(trove, { name: 'Kept' });
    const other = await signUp(trove);
    const invalid = await trove.http
      .put('/api/v1/users/self')
      .set('Authorization', user.authorization)
      .send({ name: '', email: 'nope' })
      .expect(422);
    expect(Object.keys(invalid.body.fields)).toEqual(['name', 'email']);
    await trove.http
      .put('/api/v1/users/self')
      .set('Authorization', user.authorization)
      .send({ email: other.email })
      .expect(409, { error: 'a user with this e-mail address already exists' });
    const self = await trove.http
      .get('/api/v1/users/self')
      .set('Authorization', user.authorization);
    expect(self.body.item).toMatchObject({ name: 'Kept', email: user.email });
  });

  it('GET and PUT settings store any JSON object, per user', async () => {
    const user = await signUp(trove);
    const other = await signUp(trove);
    const empty = await trove.http
      .get('/api/v1/users/self/settings')
      .set('Authorization', user.authorization)
      .expect(200);
    expect(empty.body).toEqual({ item: null });
    expect(empty.headers['cache-control']).toBe('no-store');

    const settings = { theme: 'dark', columns: ['name', 'assetId'], nested: { n: 1, ok: true } };
    const saved = await trove.http
      .put('/api/v1/users/self/settings')
      .set('Authorization', user.authorization)
      .send(settings)
      .expect(200);
    expect(saved.body).toEqual({ item: settings });
    const read = await trove.http
      .get('/api/v1/users/self/settings')
      .set('Authorization', user.authorization)
      .expect(200);
    expect(read.body).toEqual({ item: settings });
    const others = await trove.http
      .get('/api/v1/users/self/settings')
      .set('Authorization', other.authorization)
      .expect(200);
    expect(others.body).toEqual({ item: null });
  });

  it('PUT settings refuses a non-object, more than 64 KiB and more than 16 levels', async () => {
    const user = await signUp(trove);
    await trove.http
      .put('/api/v1/users/self/settings')
      .set('Authorization', user.authorization)
      .send([1, 2])
      .expect(422, {
        error: 'Validation Error',
        fields: { settings: 'settings must be a JSON object' },
      });
    await trove.http
      .put('/api/v1/users/self/settings')
      .set('Authorization', user.authorization)
      .send({ big: 'x'.repeat(70 * 1024) })
      .expect(422, {
        error: 'Validation Error',
        fields: { settings: 'settings exceed the limit of 65536 bytes' },
      });
    await trove.http
      .put('/api/v1/users/self/settings')
      .set('Authorization', user.authorization)
      .send({ a: nestedArrays(16) })
      .expect(422, {
        error: 'Validation Error',
        fields: { settings: 'settings nest deeper than 16 levels' },
      });
    await trove.http
      .put('/api/v1/users/self/settings')
      .set('Authorization', user.authorization)
      .send({ 'theme\u0000': 'dark' })
      .expect(422, {
        error: 'Validation Error',
        fields: { 'theme\\u0000': 'theme\\u0000 must not contain NUL characters' },
      });
    await trove.http
      .put('/api/v1/users/self/settings')
      .set('Authorization', user.authorization)
      .send({ views: [{ name: 'a\u0000b' }] })
      .expect(422, {
        error: 'Validation Error',
        fields: { 'views.0.name': 'views.0.name must not contain NUL characters' },
      });
    const read = await trove.http
      .get('/api/v1/users/self/settings')
      .set('Authorization', user.authorization);
    expect(read.body).toEqual({ item: null });
  });

  it('PUT settings keeps an object nested exactly 16 levels', async () => {
    const user = await signUp(trove);
    const settings = { a: nestedArrays(15) };
    await trove.http
      .put('/api/v1/users/self/settings')
      .set('Authorization', user.authorization)
      .send(settings)
      .expect(200, { item: settings });
  });

  it('DELETE removes the account with its sessions and keys; groups stay', async () => {
    const owner = await signUp(trove);
    const member = await signUp(trove);
    await trove.http
      .delete('/api/v1/users/self')
      .set('Authorization', member.authorization)
      .expect(204);
    await trove.http
      .get('/api/v1/users/self')
      .set('Authorization', member.authorization)
      .expect(401);
    const rows = await trove.query('SELECT id FROM users WHERE id = $1', [member.id]);
    expect(rows).toEqual([]);
    const groups = await trove.query('SELECT id FROM groups WHERE id = $1', [member.groupId]);
    expect(groups).toHaveLength(1);
    await trove.http
      .get('/api/v1/users/self')
      .set('Authorization', owner.authorization)
      .expect(200);
  });
});

describe('changing the password', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp();
  });
  afterAll(() => trove.close());

  for (const path of ['/api/v1/users/change-password', '/api/v1/users/self/change-password']) {
    it(`PUT ${path} answers 204, ends the other sessions and keeps the presenting one`, async () => {
      const user = await signUp(trove, { password: 'old password' });
      const other = await trove.http
        .post('/api/v1/users/login')
        .send({ username: user.email, password: 'old password' })
        .expect(200);
      const response = await trove.http
        .put(path)
        .set('Authorization', user.authorization)
        .send({ current: 'old password', new: 'new password' })
        .expect(204);
      expect(response.text).toBe('');
      await trove.http
        .get('/api/v1/users/self')
        .set('Authorization', user.authorization)
        .expect(200);
      await trove.http.get('/api/v1/users/self').set('Authorization', other.body.token).expect(401);
      await trove.http
        .post('/api/v1/users/login')
        .send({ username: user.email, password: 'old password' })
        .expect(401);
      await trove.http
        .post('/api/v1/users/login')
        .send({ username: user.email, password: 'new password' })
        .expect(200);
    });
  }

  it('refuses a wrong current password with 403 and a short new one with 422, changing nothing', async () => {
    const user = await signUp(trove, { password: 'old password' });
    await trove.http
      .put('/api/v1/users/change-password')
      .set('Authorization', user.authorization)
      .send({ current: 'not it', new: 'new password' })
      .expect(403, { error: 'current password is incorrect' });
    const short = await trove.http
      .put('/api/v1/users/change-password')
      .set('Authorization', user.authorization)
      .send({ current: 'old password', new: 'short' })
      .expect(422);
    expect(short.body.fields).toEqual({ new: 'new must be longer than or equal to 8 characters' });
    await trove.http
      .post('/api/v1/users/login')
      .send({ username: user.email, password: 'old password' })
      .expect(200);
  });

  it('needs a token', async () => {
    await trove.http
      .put('/api/v1/users/change-password')
      .send({ current: 'a', new: 'b' })
      .expect(401);
  });
});

describe('PUT /api/v1/users/self with null values', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp();
  });
  afterAll(() => trove.close());

  it('refuses null name or e-mail with 422 instead of writing them', async () => {
    const user = await signUp(trove, { name: 'Kept' });
    const response = await trove.http
      .put('/api/v1/users/self')
      .set('Authorization', user.authorization)
      .send({ name: null, email: null })
      .expect(422);
    expect(Object.keys(response.body.fields)).toEqual(['name', 'email']);
    const self = await trove.http
      .get('/api/v1/users/self')
      .set('Authorization', user.authorization);
    expect(self.body.item.name).toBe('Kept');
  });
});
