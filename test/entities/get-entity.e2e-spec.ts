import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { signUpMember, type Session } from '../support/factories.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { createEntity, expectSummaryShape } from './entity-helpers.js';

describe('GET /api/v1/entities/{id}', () => {
  const t = useSharedApp();

  const auth = (session: Session) => ({ Authorization: session.authorization });

  it('GET /entities/{id}: 200 for the group, 404 for another group and unknown ids, 400 for a bad id', async () => {
    const entity = await createEntity(t.trove, t.owner, { name: 'Lamp' });
    const response = await t.trove.http
      .get(`/api/v1/entities/${entity.id}`)
      .set(auth(t.owner))
      .expect(200);
    expectSummaryShape(response.body);
    await t.trove.http
      .get(`/api/v1/entities/${entity.id}`)
      .set(auth(t.stranger))
      .expect(404, { error: `entity ${entity.id} not found` });
    await t.trove.http.get(`/api/v1/entities/${randomUUID()}`).set(auth(t.owner)).expect(404);
    await t.trove.http
      .get('/api/v1/entities/lamp')
      .set(auth(t.owner))
      .expect(400, { error: 'invalid route key: id' });
    await t.trove.http.get(`/api/v1/entities/${entity.id}`).expect(401);
  });

  it('answers a viewer of the group', async () => {
    const viewer = await signUpMember(t.trove, t.owner, 'viewer');
    const entity = await createEntity(t.trove, t.owner, { name: 'Shown' });
    const response = await t.trove.http
      .get(`/api/v1/entities/${entity.id}`)
      .set(auth(viewer))
      .expect(200);
    expect(response.body).toMatchObject({ id: entity.id, name: 'Shown' });
  });

  it('needs a valid token', async () => {
    const entity = await createEntity(t.trove, t.owner, { name: 'Private' });
    await expectUnauthenticated(t.trove, 'get', `/api/v1/entities/${entity.id}`);
  });
});
