import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { type EntityBody, seedNestedEntities } from './entity-helpers.js';

describe('GET /api/v1/entities/{id}/path', () => {
  let trove: TestApp;
  let owner: Session;
  let stranger: Session;
  let shelf: EntityBody;
  let box: EntityBody;
  let cable: EntityBody;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove);
    stranger = await signUp(trove);
    ({ shelf, box, cable } = await seedNestedEntities(trove, owner, stranger));
  });
  afterAll(() => trove.close());

  it('GET /entities/{id}/path runs from the top level down to the entity', async () => {
    const response = await trove.http
      .get(`/api/v1/entities/${cable.id}/path`)
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(response.body).toEqual([
      { type: 'location', id: expect.any(String), name: 'Garage' },
      { type: 'location', id: shelf.id, name: 'shelf' },
      { type: 'item', id: box.id, name: 'Box' },
      { type: 'item', id: cable.id, name: 'Cable' },
    ]);
    await trove.http
      .get(`/api/v1/entities/${cable.id}/path`)
      .set('Authorization', stranger.authorization)
      .expect(404);
    await trove.http
      .get(`/api/v1/entities/${randomUUID()}/path`)
      .set('Authorization', owner.authorization)
      .expect(404);
  });

  it('needs a valid token', async () => {
    await expectUnauthenticated(trove, 'get', `/api/v1/entities/${cable.id}/path`);
  });
});
