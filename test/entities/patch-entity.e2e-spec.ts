import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { signUpMember, type Session } from '../support/factories.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { createEntity, locationId, tagId } from './entity-helpers.js';

describe('PATCH /api/v1/entities/{id}', () => {
  const t = useSharedApp();

  const auth = (session: Session) => ({ Authorization: session.authorization });

  it('PATCH changes only quantity, parent, type and tags', async () => {
    const garage = await locationId(t.trove, t.owner, 'Garage');
    const office = await locationId(t.trove, t.owner, 'Office');
    const tag = await tagId(t.trove, t.owner, 'IOT');
    const entity = await createEntity(t.trove, t.owner, {
      name: 'Router',
      parentId: garage,
      description: 'kept',
      tagIds: [tag],
    });
    const moved = await t.trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .send({ parentId: office, quantity: 4 })
      .expect(200);
    expect(moved.body).toMatchObject({
      parent: { id: office },
      quantity: 4,
      description: 'kept',
      tags: [{ id: tag }],
    });
    const untouched = await t.trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .send({ parentId: null, tagIds: null })
      .expect(200);
    expect(untouched.body).toMatchObject({ parent: { id: office }, tags: [{ id: tag }] });
    const cleared = await t.trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .send({ tagIds: [] })
      .expect(200);
    expect(cleared.body.tags).toEqual([]);
    await t.trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .send({ quantity: -2 })
      .expect(422);
    await t.trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(t.stranger))
      .send({ quantity: 9 })
      .expect(404);
    const read = await t.trove.http.get(`/api/v1/entities/${entity.id}`).set(auth(t.owner));
    expect(read.body.quantity).toBe(4);
  });

  it('needs a valid token, refuses viewers, and changes nothing', async () => {
    const viewer = await signUpMember(t.trove, t.owner, 'viewer');
    const entity = await createEntity(t.trove, t.owner, { name: 'Guarded' });
    await expectUnauthenticated(t.trove, 'patch', `/api/v1/entities/${entity.id}`, { quantity: 9 });
    await t.trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(viewer))
      .send({ quantity: 9 })
      .expect(403);
    const read = await t.trove.http.get(`/api/v1/entities/${entity.id}`).set(auth(t.owner));
    expect(read.body).toMatchObject({ name: 'Guarded', quantity: 1 });
  });
});
