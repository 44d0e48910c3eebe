import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { createEntity } from './entity-helpers.js';

describe('DELETE /api/v1/entities/{id}', () => {
  let trove: TestApp;
  let owner: Session;
  let stranger: Session;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove);
    stranger = await signUp(trove);
  });
  afterAll(() => trove.close());

  const auth = (session: Session) => ({ Authorization: session.authorization });

  it('DELETE removes the entity with its fields and maintenance; children move to the top level', async () => {
    const box = await createEntity(trove, owner, { name: 'Crate' });
    const child = await createEntity(trove, owner, { name: 'Cable', parentId: box.id });
    await trove.http
      .put(`/api/v1/entities/${box.id}`)
      .set(auth(owner))
      .send({ name: 'Crate', fields: [{ type: 'text', name: 'Size', textValue: 'L' }] })
      .expect(200);
    await trove.http.delete(`/api/v1/entities/${box.id}`).set(auth(stranger)).expect(404);
    await trove.http.delete(`/api/v1/entities/${box.id}`).set(auth(owner)).expect(204);
    await trove.http.get(`/api/v1/entities/${box.id}`).set(auth(owner)).expect(404);
    const orphan = await trove.http
      .get(`/api/v1/entities/${child.id}`)
      .set(auth(owner))
      .expect(200);
    expect(orphan.body.parent).toBeNull();
    expect(
      await trove.query('SELECT id FROM entity_fields WHERE entity_id = $1', [box.id]),
    ).toEqual([]);
    await trove.http.delete(`/api/v1/entities/${box.id}`).set(auth(owner)).expect(404);
  });

  it('needs a valid token, refuses viewers, and deletes nothing', async () => {
    const viewer = await signUpMember(trove, owner, 'viewer');
    const entity = await createEntity(trove, owner, { name: 'Guarded' });
    await expectUnauthenticated(trove, 'delete', `/api/v1/entities/${entity.id}`);
    await trove.http.delete(`/api/v1/entities/${entity.id}`).set(auth(viewer)).expect(403);
    await trove.http.get(`/api/v1/entities/${entity.id}`).set(auth(owner)).expect(200);
  });
});
