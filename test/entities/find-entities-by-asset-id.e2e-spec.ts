import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { type EntityBody, seedNestedEntities } from './entity-helpers.js';

describe('GET /api/v1/assets/{id}', () => {
  let box: EntityBody;
  const t = useSharedApp(async ({ trove, owner, stranger }) => {
    ({ box } = await seedNestedEntities(trove, owner, stranger));
  });

  it('GET /assets/{id} finds entities by asset id, written either way', async () => {
    const expected = {
      page: -1,
      pageSize: -1,
      total: 1,
      items: [expect.objectContaining({ id: box.id, name: 'Box', assetId: box.assetId })],
    };
    const formatted = await t.trove.http
      .get(`/api/v1/assets/${box.assetId}`)
      .set('Authorization', t.owner.authorization)
      .expect(200);
    expect(formatted.body).toEqual(expected);
    const plain = await t.trove.http
      .get(`/api/v1/assets/${Number(box.assetId.replace('-', ''))}`)
      .query({ page: 1, pageSize: 50 })
      .set('Authorization', t.owner.authorization)
      .expect(200);
    expect(plain.body).toEqual({ ...expected, page: 1, pageSize: 50 });
    const theirs = await t.trove.http
      .get(`/api/v1/assets/${box.assetId}`)
      .set('Authorization', t.stranger.authorization)
      .expect(200);
    expect(theirs.body.items.map((item: { id: string }) => item.id)).not.toContain(box.id);
    await t.trove.http
      .get('/api/v1/assets/abc')
      .set('Authorization', t.owner.authorization)
      .expect(400, { error: 'invalid asset id: abc' });
  });

  it('needs a valid token', async () => {
    await expectUnauthenticated(t.trove, 'get', `/api/v1/assets/${box.assetId}`);
  });
});
