import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { signUpMember, type Session } from '../support/factories.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { createEntity, tagId } from './entity-helpers.js';

describe('POST /api/v1/entities/{id}/duplicate', () => {
  const t = useSharedApp();

  const auth = (session: Session) => ({ Authorization: session.authorization });

  it('POST /entities/{id}/duplicate copies with a prefix and a new asset id, fields when asked', async () => {
    const tag = await tagId(t.trove, t.owner, 'Servers');
    const source = await createEntity(t.trove, t.owner, { name: 'NAS', tagIds: [tag] });
    await t.trove.http
      .put(`/api/v1/entities/${source.id}`)
      .set(auth(t.owner))
      .send({
        name: 'NAS',
        assetId: source.assetId,
        tagIds: [tag],
        fields: [{ type: 'text', name: 'Bays', textValue: '4' }],
        purchasePrice: 300,
      })
      .expect(200);
    const plain = await t.trove.http
      .post(`/api/v1/entities/${source.id}/duplicate`)
      .set(auth(t.owner))
      .send({})
      .expect(201);
    expect(plain.body).toMatchObject({
      name: 'Copy of NAS',
      fields: [],
      purchasePrice: 300,
      tags: [{ id: tag }],
    });
    expect(plain.body.assetId).not.toBe(source.assetId);
    const withFields = await t.trove.http
      .post(`/api/v1/entities/${source.id}/duplicate`)
      .set(auth(t.owner))
      .send({ copyCustomFields: true, copyPrefix: 'Spare ' })
      .expect(201);
    expect(withFields.body).toMatchObject({
      name: 'Spare NAS',
      fields: [{ name: 'Bays', textValue: '4' }],
    });
    await t.trove.http
      .post(`/api/v1/entities/${source.id}/duplicate`)
      .set(auth(t.stranger))
      .send({})
      .expect(404);
    await t.trove.http
      .post(`/api/v1/entities/${source.id}/duplicate`)
      .set(auth(t.owner))
      .send({ copyPrefix: 5 })
      .expect(422);
  });

  it('needs a valid token, refuses viewers, and copies nothing', async () => {
    const viewer = await signUpMember(t.trove, t.owner, 'viewer');
    const entity = await createEntity(t.trove, t.owner, { name: 'Single' });
    await expectUnauthenticated(t.trove, 'post', `/api/v1/entities/${entity.id}/duplicate`, {});
    await t.trove.http
      .post(`/api/v1/entities/${entity.id}/duplicate`)
      .set(auth(viewer))
      .send({})
      .expect(403);
    const [{ count }] = await t.trove.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM entities WHERE group_id = $1 AND name LIKE '%Single'`,
      [t.owner.groupId],
    );
    expect(count).toBe(1);
  });
});
