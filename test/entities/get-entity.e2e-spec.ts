import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { createEntity, expectSummaryShape } from './entity-helpers.js';

describe('GET /api/v1/entities/{id}', () => {
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

  it('GET /entities/{id}: 200 for the group, 404 for another group and unknown ids, 400 for a bad id', async () => {
    const entity = await createEntity(trove, owner, { name: 'Lamp' });
    const response = await trove.http
      .get(`/api/v1/entities/${entity.id}`)
      .set(auth(owner))
      .expect(200);
    expectSummaryShape(response.body);
    await trove.http
      .get(`/api/v1/entities/${entity.id}`)
      .set(auth(stranger))
      .expect(404, { error: `entity ${entity.id} not found` });
    await trove.http.get(`/api/v1/entities/${randomUUID()}`).set(auth(owner)).expect(404);
    await trove.http
      .get('/api/v1/entities/lamp')
      .set(auth(owner))
      .expect(400, { error: 'invalid route key: id' });
    await trove.http.get(`/api/v1/entities/${entity.id}`).expect(401);
  });

  it('answers a viewer of the group', async () => {
    const viewer = await signUpMember(trove, owner, 'viewer');
    const entity = await createEntity(trove, owner, { name: 'Shown' });
    const response = await trove.http
      .get(`/api/v1/entities/${entity.id}`)
      .set(auth(viewer))
      .expect(200);
    expect(response.body).toMatchObject({ id: entity.id, name: 'Shown' });
  });

  it('needs a valid token', async () => {
    const entity = await createEntity(trove, owner, { name: 'Private' });
    await expectUnauthenticated(trove, 'get', `/api/v1/entities/${entity.id}`);
  });
});
