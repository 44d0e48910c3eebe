import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { seedNestedEntities } from './entity-helpers.js';

describe('GET /api/v1/entities/fields and /entities/fields/values', () => {
  const t = useSharedApp(async ({ trove, owner, stranger }) => {
    await seedNestedEntities(trove, owner, stranger);
  });

  it('GET /entities/fields and /entities/fields/values list the group’s field names and text values', async () => {
    const names = await t.trove.http
      .get('/api/v1/entities/fields')
      .set('Authorization', t.owner.authorization)
      .expect(200);
    expect(names.body).toEqual(['Colour', 'Size']);
    const values = await t.trove.http
      .get('/api/v1/entities/fields/values')
      .query({ field: 'Colour' })
      .set('Authorization', t.owner.authorization)
      .expect(200);
    expect(values.body).toEqual(['blue', 'red']);
    const theirs = await t.trove.http
      .get('/api/v1/entities/fields')
      .set('Authorization', t.stranger.authorization)
      .expect(200);
    expect(theirs.body).toEqual([]);
    const missing = await t.trove.http
      .get('/api/v1/entities/fields/values')
      .set('Authorization', t.owner.authorization)
      .expect(422);
    expect(Object.keys(missing.body.fields)).toEqual(['field']);
  });

  it('needs a valid token', async () => {
    await expectUnauthenticated(t.trove, 'get', '/api/v1/entities/fields');
    await expectUnauthenticated(t.trove, 'get', '/api/v1/entities/fields/values?field=Colour');
  });
});
