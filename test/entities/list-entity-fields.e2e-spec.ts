import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { seedNestedEntities } from './entity-helpers.js';

describe('GET /api/v1/entities/fields and /entities/fields/values', () => {
  let trove: TestApp;
  let owner: Session;
  let stranger: Session;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove);
    stranger = await signUp(trove);
    await seedNestedEntities(trove, owner, stranger);
  });
  afterAll(() => trove.close());

  it('GET /entities/fields and /entities/fields/values list the group’s field names and text values', async () => {
    const names = await trove.http
      .get('/api/v1/entities/fields')
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(names.body).toEqual(['Colour', 'Size']);
    const values = await trove.http
      .get('/api/v1/entities/fields/values')
      .query({ field: 'Colour' })
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(values.body).toEqual(['blue', 'red']);
    const theirs = await trove.http
      .get('/api/v1/entities/fields')
      .set('Authorization', stranger.authorization)
      .expect(200);
    expect(theirs.body).toEqual([]);
    const missing = await trove.http
      .get('/api/v1/entities/fields/values')
      .set('Authorization', owner.authorization)
      .expect(422);
    expect(Object.keys(missing.body.fields)).toEqual(['field']);
  });

  it('needs a valid token', async () => {
    await expectUnauthenticated(trove, 'get', '/api/v1/entities/fields');
    await expectUnauthenticated(trove, 'get', '/api/v1/entities/fields/values?field=Colour');
  });
});
