import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { createEntity, locationId, tagId } from './entity-helpers.js';

describe('PATCH /api/v1/entities/{id}', () => {
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

  it('PATCH changes only quantity, parent, type and tags', async () => {
    const garage = await locationId(trove, owner, 'Garage');
    const office = await locationId(trove, owner, 'Office');
    const tag = await tagId(trove, owner, 'IOT');
    const entity = await createEntity(trove, owner, {
      name: 'Router',
      parentId: garage,
      description: 'kept',
      tagIds: [tag],
    });
    const moved = await trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(owner))
      .send({ parentId: office, quantity: 4 })
      .expect(200);
    expect(moved.body).toMatchObject({
      parent: { id: office },
      quantity: 4,
      description: 'kept',
      tags: [{ id: tag }],
    });
    const untouched = await trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(owner))
      .send({ parentId: null, tagIds: null })
      .expect(200);
    expect(untouched.body).toMatchObject({ parent: { id: office }, tags: [{ id: tag }] });
    const cleared = await trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(owner))
      .send({ tagIds: [] })
      .expect(200);
    expect(cleared.body.tags).toEqual([]);
    await trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(owner))
      .send({ quantity: -2 })
      .expect(422);
    await trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(stranger))
      .send({ quantity: 9 })
      .expect(404);
    const read = await trove.http.get(`/api/v1/entities/${entity.id}`).set(auth(owner));
    expect(read.body.quantity).toBe(4);
  });

  it('needs a valid token, refuses viewers, and changes nothing', async () => {
    const viewer = await signUpMember(trove, owner, 'viewer');
    const entity = await createEntity(trove, owner, { name: 'Guarded' });
    await expectUnauthenticated(trove, 'patch', `/api/v1/entities/${entity.id}`, { quantity: 9 });
    await trove.http
      .patch(`/api/v1/entities/${entity.id}`)
      .set(auth(viewer))
      .send({ quantity: 9 })
      .expect(403);
    const read = await trove.http.get(`/api/v1/entities/${entity.id}`).set(auth(owner));
    expect(read.body).toMatchObject({ name: 'Guarded', quantity: 1 });
  });
});
