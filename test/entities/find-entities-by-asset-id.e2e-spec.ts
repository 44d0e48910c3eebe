import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { type EntityBody, seedNestedEntities } from './entity-helpers.js';

describe('GET /api/v1/assets/{id}', () => {
  let trove: TestApp;
  let owner: Session;
  let stranger: Session;
  let box: EntityBody;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove);
    stranger = await signUp(trove);
    ({ box } = await seedNestedEntities(trove, owner, stranger));
  });
  afterAll(() => trove.close());

  it('GET /assets/{id} finds entities by asset id, written either way', async () => {
    const expected = {
      page: -1,
      pageSize: -1,
      total: 1,
      items: [expect.objectContaining({ id: box.id, name: 'Box', assetId: box.assetId })],
    };
    const formatted = await trove.http
      .get(`/api/v1/assets/${box.assetId}`)
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(formatted.body).toEqual(expected);
    const plain = await trove.http
      .get(`/api/v1/assets/${Number(box.assetId.replace('-', ''))}`)
      .query({ page: 1, pageSize: 50 })
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(plain.body).toEqual({ ...expected, page: 1, pageSize: 50 });
    const theirs = await trove.http
      .get(`/api/v1/assets/${box.assetId}`)
      .set('Authorization', stranger.authorization)
      .expect(200);
    expect(theirs.body.items.map((item: { id: string }) => item.id)).not.toContain(box.id);
    await trove.http
      .get('/api/v1/assets/abc')
      .set('Authorization', owner.authorization)
      .expect(400, { error: 'invalid asset id: abc' });
  });

  it('needs a valid token', async () => {
    await expectUnauthenticated(trove, 'get', `/api/v1/assets/${box.assetId}`);
  });
});
