import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { createEntity, tagId } from './entity-helpers.js';

describe('POST /api/v1/entities/{id}/duplicate', () => {
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

  it('POST /entities/{id}/duplicate copies with a prefix and a new asset id, fields when asked', async () => {
    const tag = await tagId(trove, owner, 'Servers');
    const source = await createEntity(trove, owner, { name: 'NAS', tagIds: [tag] });
    await trove.http
      .put(`/api/v1/entities/${source.id}`)
      .set(auth(owner))
      .send({
        name: 'NAS',
        assetId: source.assetId,
        tagIds: [tag],
        fields: [{ type: 'text', name: 'Bays', textValue: '4' }],
        purchasePrice: 300,
      })
      .expect(200);
    const plain = await trove.http
      .post(`/api/v1/entities/${source.id}/duplicate`)
      .set(auth(owner))
      .send({})
      .expect(201);
    expect(plain.body).toMatchObject({
      name: 'Copy of NAS',
      fields: [],
      purchasePrice: 300,
      tags: [{ id: tag }],
    });
    expect(plain.body.assetId).not.toBe(source.assetId);
    const withFields = await trove.http
      .post(`/api/v1/entities/${source.id}/duplicate`)
      .set(auth(owner))
      .send({ copyCustomFields: true, copyPrefix: 'Spare ' })
      .expect(201);
    expect(withFields.body).toMatchObject({
      name: 'Spare NAS',
      fields: [{ name: 'Bays', textValue: '4' }],
    });
    await trove.http
      .post(`/api/v1/entities/${source.id}/duplicate`)
      .set(auth(stranger))
      .send({})
      .expect(404);
    await trove.http
      .post(`/api/v1/entities/${source.id}/duplicate`)
      .set(auth(owner))
      .send({ copyPrefix: 5 })
      .expect(422);
  });

  it('needs a valid token, refuses viewers, and copies nothing', async () => {
    const viewer = await signUpMember(trove, owner, 'viewer');
    const entity = await createEntity(trove, owner, { name: 'Single' });
    await expectUnauthenticated(trove, 'post', `/api/v1/entities/${entity.id}/duplicate`, {});
    await trove.http
      .post(`/api/v1/entities/${entity.id}/duplicate`)
      .set(auth(viewer))
      .send({})
      .expect(403);
    const [{ count }] = await trove.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM entities WHERE group_id = $1 AND name LIKE '%Single'`,
      [owner.groupId],
    );
    expect(count).toBe(1);
  });
});
