import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, signUp, uniqueEmail } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const countUsers = async (trove: TestApp): Promise<number> =>
  Number((await trove.query<{ n: string }>('SELECT count(*) AS n FROM users'))[0].n);

describe('POST /api/v1/users/register', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp();
  });
  afterAll(() => trove.close());

  it('creates the user and a seeded group they own, answering 204 with no body', async () => {
    const email = uniqueEmail('Ada');
    const response = await trove.http
      .post('/api/v1/users/register')
      .send({ name: 'Ada', email: `  ${email.toUpperCase()} `, password: 'correct horse' })
      .expect(204);
    expect(response.text).toBe('');

    const session = await signIn(trove, email, 'correct horse');
    const self = await trove.http
      .get('/api/v1/users/self')
      .set('Authorization', session.authorization)
      .expect(200);
    expect(self.body).toEqual({
      item: {
        id: expect.any(String),
        name: 'Ada',
        email: email.toLowerCase(),
        isSuperuser: false,
        defaultGroupId: expect.any(String),
        groupIds: [self.body.item.defaultGroupId],
        oidcIssuer: null,
        oidcSubject: null,
      },
    });
    const group = await trove.http
      .get('/api/v1/groups')
      .set('Authorization', session.authorization)
      .expect(200);
    expect(group.body).toMatchObject({ name: "Ada's Home", currency: 'USD' });
    const members = await trove.http
      .get('/api/v1/groups/members')
      .set('Authorization', session.authorization)
      .expect(200);
    expect(members.body).toEqual([
      {
        id: self.body.item.id,
        name: 'Ada',
        email: email.toLowerCase(),
        role: 'owner',
        disabled: false,
      },
    ]);

    const seeded = await trove.query<{ types: string[]; locations: string[]; tags: string[] }>(
      `SELECT
         ARRAY(SELECT name || ':' || is_location FROM entity_types WHERE group_id = $1 ORDER BY name) AS types,
         ARRAY(SELECT e.name FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
               WHERE e.group_id = $1 AND t.is_location ORDER BY e.asset_id) AS locations,
         ARRAY(SELECT name FROM tags WHERE group_id = $1 ORDER BY name) AS tags`,
      [group.body.id],
    );
    expect(seeded).toEqual([
      {
        types: ['Item:false', 'Location:true'],
        locations: [
          'Living Room',
          'Garage',
          'Kitchen',
          'Bedroom',
          'Bathroom',
          'Office',
          'Attic',
          'Basement',
        ],
        tags: ['Appliances', 'Electronics', 'General', 'IOT', 'Important', 'Servers'],
      },
    ]);
  });

  it('refuses bad input with 422 naming each field, and writes nothing', async () => {
    const before = await countUsers(trove);
    const response = await trove.http
      .post('/api/v1/users/register')
      .send({ name: '', email: 'not-an-address', password: 'short' })
      .expect(422);
    expect(response.body).toEqual({
      error: 'Validation Error',
      fields: {
        name: 'name must be longer than or equal to 1 characters',
        email: 'email must be an e-mail address',
        password: 'password must be longer than or equal to 8 characters',
      },
    });
    await trove.http.post('/api/v1/users/register').send({}).expect(422);
    await trove.http
      .post('/api/v1/users/register')
      .send({ name: 'x'.repeat(256), email: uniqueEmail(), password: 'long enough' })
      .expect(422);
    expect(await countUsers(trove)).toBe(before);
  });

  it('refuses an e-mail address already in use, whatever its case, with 409', async () => {
    const existing = await signUp(trove);
    const before = await countUsers(trove);
    const response = await trove.http
      .post('/api/v1/users/register')
      .send({ name: 'Copy', email: existing.email.toUpperCase(), password: 'another password' })
      .expect(409);
    expect(response.body).toEqual({ error: 'a user with this e-mail address already exists' });
    expect(await countUsers(trove)).toBe(before);
  });

  it('ignores keys it does not know, such as roles or ids', async () => {
    const email = uniqueEmail();
    await trove.http
      .post('/api/v1/users/register')
      .send({
        name: 'Mallory',
        email,
        password: 'correct horse',
        isSuperuser: true,
        role: 'owner',
        id: '00000000-0000-0000-0000-000000000001',
        defaultGroupId: '00000000-0000-0000-0000-000000000002',
      })
      .expect(204);
    const [user] = await trove.query<{ id: string; is_superuser: boolean }>(
      'SELECT id, is_superuser FROM users WHERE email = $1',
      [email],
    );
    expect(user.is_superuser).toBe(false);
    expect(user.id).not.toBe('00000000-0000-0000-0000-000000000001');
  });

  it('refuses an unknown invitation token with 404 and writes nothing', async () => {
    const before = await countUsers(trove);
    await trove.http
      .post('/api/v1/users/register')
      .send({
        name: 'Eve',
        email: uniqueEmail(),
        password: 'correct horse',
        token: 'no-such-token',
      })
      .expect(404, { error: 'invitation not found' });
    expect(await countUsers(trove)).toBe(before);
  });
});

describe('POST /api/v1/users/register with registration closed', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp({ TROVE_OPTIONS_ALLOW_REGISTRATION: 'false' });
  });
  afterAll(() => trove.close());

  it('refuses self-registration but admits invited users', async () => {
    await trove.http
      .post('/api/v1/users/register')
      .send({ name: 'Eve', email: uniqueEmail(), password: 'correct horse' })
      .expect(403, { error: 'user registration disabled' });
    expect(await countUsers(trove)).toBe(0);
  });
});

describe('POST /api/v1/users/register with local login disabled', () => {
  let trove: TestApp;

  beforeAll(async () => {
    trove = await createTestApp({ TROVE_OPTIONS_ALLOW_LOCAL_LOGIN: 'false' });
  });
  afterAll(() => trove.close());

  it('refuses registration, even with a token, and login', async () => {
    await trove.http
      .post('/api/v1/users/register')
      .send({ name: 'Eve', email: uniqueEmail(), password: 'correct horse', token: 'anything' })
      .expect(403, { error: 'local login is not enabled' });
    await trove.http
      .post('/api/v1/users/login')
      .send({ username: 'eve@example.com', password: 'correct horse' })
      .expect(403, { error: 'local login is not enabled' });
    expect(await countUsers(trove)).toBe(0);
  });
});
