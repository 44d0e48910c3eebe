import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { signUpMember, type Session } from '../support/factories.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { createEntity } from './entity-helpers.js';

describe('DELETE /api/v1/entities/{id}', () => {
  const t = useSharedApp();

  const auth = (session: Session) => ({ Authorization: session.authorization });

  it('DELETE removes the entity with its fields and maintenance; children move to the top level', async () => {
    const box = await createEntity(t.trove, t.owner, { name: 'Crate' });
    const child = await createEntity(t.trove, t.owner, { name: 'Cable', parentId: box.id });
    await t.trove.http
      .put(`/api/v1/entities/${box.id}`)
      .set(auth(t.owner))
      .send({ name: 'Crate', fields: [{ type: 'text', name: 'Size', textValue: 'L' }] })
      .expect(200);
    await t.trove.http.delete(`/api/v1/entities/${box.id}`).set(auth(t.stranger)).expect(404);
    await t.trove.http.delete(`/api/v1/entities/${box.id}`).set(auth(t.owner)).expect(204);
    await t.trove.http.get(`/api/v1/entities/${box.id}`).set(auth(t.owner)).expect(404);
    const orphan = await t.trove.http
      .get(`/api/v1/entities/${child.id}`)
      .set(auth(t.owner))
      .expect(200);
    expect(orphan.body.parent).toBeNull();
    expect(
      await t.trove.query('SELECT id FROM entity_fields WHERE entity_id = $1', [box.id]),
    ).toEqual([]);
    await t.trove.http.delete(`/api/v1/entities/${box.id}`).set(auth(t.owner)).expect(404);
  });

  it('needs a valid token, refuses viewers, and deletes nothing', async () => {
    const viewer = await signUpMember(t.trove, t.owner, 'viewer');
    const entity = await createEntity(t.trove, t.owner, { name: 'Guarded' });
    await expectUnauthenticated(t.trove, 'delete', `/api/v1/entities/${entity.id}`);
    await t.trove.http.delete(`/api/v1/entities/${entity.id}`).set(auth(viewer)).expect(403);
    await t.trove.http.get(`/api/v1/entities/${entity.id}`).set(auth(t.owner)).expect(200);
  });
});
