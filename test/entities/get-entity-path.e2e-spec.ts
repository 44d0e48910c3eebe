import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { type EntityBody, seedNestedEntities } from './entity-helpers.js';

describe('GET /api/v1/entities/{id}/path', () => {
  let shelf: EntityBody;
  let box: EntityBody;
  let cable: EntityBody;
  const t = useSharedApp(async ({ trove, owner, stranger }) => {
    ({ shelf, box, cable } = await seedNestedEntities(trove, owner, stranger));
  });

  it('GET /entities/{id}/path runs from the top level down to the entity', async () => {
    const response = await t.trove.http
      .get(`/api/v1/entities/${cable.id}/path`)
      .set('Authorization', t.owner.authorization)
      .expect(200);
    expect(response.body).toEqual([
      { type: 'location', id: expect.any(String), name: 'Garage' },
      { type: 'location', id: shelf.id, name: 'shelf' },
      { type: 'item', id: box.id, name: 'Box' },
      { type: 'item', id: cable.id, name: 'Cable' },
    ]);
    await t.trove.http
      .get(`/api/v1/entities/${cable.id}/path`)
      .set('Authorization', t.stranger.authorization)
      .expect(404);
    await t.trove.http
      .get(`/api/v1/entities/${randomUUID()}/path`)
      .set('Authorization', t.owner.authorization)
      .expect(404);
  });

  it('needs a valid token', async () => {
    await expectUnauthenticated(t.trove, 'get', `/api/v1/entities/${cable.id}/path`);
  });
});
