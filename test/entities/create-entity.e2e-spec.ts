import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { signUp, signUpMember } from '../support/factories.js';
import {
  countEntities,
  createEntity,
  expectSummaryShape,
  locationId,
  tagId,
  typeId,
} from './entity-helpers.js';

describe('POST /api/v1/entities', () => {
  const t = useSharedApp();

  it('answers 201 with the whole summary view, every field of spec §2.1 with its type', async () => {
    const garage = await locationId(t.trove, t.owner, 'Garage');
    const tools = await tagId(t.trove, t.owner, 'General');
    const response = await t.trove.http
      .post('/api/v1/entities')
      .set('Authorization', t.owner.authorization)
      .send({
        name: 'Cordless drill',
        description: '18 V',
        parentId: garage,
        tagIds: [tools],
        quantity: 2,
        modelNumber: 'DCD777',
        manufacturer: 'DeWalt',
      })
      .expect(201);
    const body = response.body;
    expectSummaryShape(body);
    expect(body).toMatchObject({
      name: 'Cordless drill',
      description: '18 V',
      quantity: 2,
      modelNumber: 'DCD777',
      manufacturer: 'DeWalt',
      assetId: '000-009',
      archived: false,
      insured: false,
      imageId: null,
      thumbnailId: null,
      attachments: [],
      fields: [],
      children: [],
      itemCount: 0,
      purchaseDate: '',
      soldDate: '',
      warrantyExpires: '',
      purchasePrice: 0,
      totalPrice: 0,
      entityType: { name: 'Item', isLocation: false, defaultTemplateId: '', defaultTemplate: null },
      parent: { id: garage, name: 'Garage', assetId: '000-002', itemCount: 2, parent: null },
      location: { id: garage, name: 'Garage' },
      tags: [{ id: tools, name: 'General', parentId: null }],
    });
    const read = await t.trove.http
      .get(`/api/v1/entities/${body.id}`)
      .set('Authorization', t.owner.authorization)
      .expect(200);
    expect(read.body).toEqual(body);
  });

  it('defaults: quantity 1, the group’s item type, top level, no tags', async () => {
    const body = await createEntity(t.trove, t.owner, { name: 'Plain' });
    expect(body).toMatchObject({
      quantity: 1,
      parent: null,
      location: null,
      tags: [],
      description: '',
    });
    expect((body.entityType as { id: string }).id).toBe(await typeId(t.trove, t.owner, 'Item'));
  });

  it('makes the group a new item type when it has none left, and uses it', async () => {
    const alone = await signUp(t.trove);
    const itemType = await typeId(t.trove, alone, 'Item');
    await t.trove.http
      .delete(`/api/v1/entity-types/${itemType}`)
      .set('Authorization', alone.authorization)
      .expect(204);

    const body = await createEntity(t.trove, alone, { name: 'Typeless' });

    const entityType = body.entityType as { id: string; name: string; isLocation: boolean };
    expect(entityType).toMatchObject({ name: 'Item', isLocation: false });
    expect(entityType.id).not.toBe(itemType);
    const rows = await t.trove.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM entity_types WHERE group_id = $1 AND NOT is_location',
      [alone.groupId],
    );
    expect(rows).toEqual([{ count: 1 }]);
  });

  it('gives the next asset id after the highest in the group, as Homebox does', async () => {
    const alone = await signUp(t.trove);
    const [highest] = await t.trove.query<{ highest: number }>(
      'SELECT max(asset_id)::int AS highest FROM entities WHERE group_id = $1',
      [alone.groupId],
    );
    const next = (n: number): string => `000-${String(highest.highest + n).padStart(3, '0')}`;
    const first = await createEntity(t.trove, alone, { name: 'First' });
    const second = await createEntity(t.trove, alone, { name: 'Second' });
    expect([first.assetId, second.assetId]).toEqual([next(1), next(2)]);
    await t.trove.http
      .delete(`/api/v1/entities/${second.id}`)
      .set('Authorization', alone.authorization)
      .expect(204);

    const third = await createEntity(t.trove, alone, { name: 'Third' });

    expect(third.assetId).toBe(next(2));
  });

  it('creates a location when given a location type', async () => {
    const shelf = await createEntity(t.trove, t.owner, {
      name: 'Shelf',
      entityTypeId: await typeId(t.trove, t.owner, 'Location'),
    });
    expect(shelf.entityType).toMatchObject({ isLocation: true });
    const inside = await createEntity(t.trove, t.owner, { name: 'Box', parentId: shelf.id });
    expect(inside.parent).toMatchObject({ id: shelf.id, itemCount: 1 });
  });

  it('refuses bad input with 422 naming the fields, writing nothing', async () => {
    const before = await countEntities(t.trove, t.owner);
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['name']],
      [{ name: '' }, ['name']],
      [{ name: 'x'.repeat(256) }, ['name']],
      [{ name: 'ok', description: 'x'.repeat(1001) }, ['description']],
      [{ name: 'ok', quantity: -1 }, ['quantity']],
      [{ name: 'ok', quantity: 'two' }, ['quantity']],
      [{ name: 'ok', parentId: 'nope', tagIds: ['x'] }, ['parentId', 'tagIds']],
      [{ name: 'ok', entityTypeId: randomUUID() }, ['entityTypeId']],
      [{ name: 'ok', parentId: randomUUID() }, ['parentId']],
      [{ name: 'ok', tagIds: [randomUUID()] }, ['tagIds']],
    ];
    for (const [body, fields] of cases) {
      const response = await t.trove.http
        .post('/api/v1/entities')
        .set('Authorization', t.owner.authorization)
        .send(body);
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), 422]);
      expect(response.body.error).toBe('Validation Error');
      expect(Object.keys(response.body.fields).sort()).toEqual(fields.sort());
    }
    expect(await countEntities(t.trove, t.owner)).toBe(before);
  });

  it('refuses another group’s parent, type and tags with 422, writing nothing', async () => {
    const before = await countEntities(t.trove, t.owner);
    const theirs = {
      parentId: await locationId(t.trove, t.stranger, 'Garage'),
      entityTypeId: await typeId(t.trove, t.stranger, 'Item'),
      tagIds: [await tagId(t.trove, t.stranger, 'General')],
    };
    for (const [field, value] of Object.entries(theirs)) {
      const response = await t.trove.http
        .post('/api/v1/entities')
        .set('Authorization', t.owner.authorization)
        .send({ name: 'Sneaky', [field]: value })
        .expect(422);
      expect(Object.keys(response.body.fields)).toEqual([field]);
    }
    expect(await countEntities(t.trove, t.owner)).toBe(before);
  });

  it('ignores keys it does not know, such as a group id or an asset id', async () => {
    const body = await createEntity(t.trove, t.owner, {
      name: 'Mine',
      groupId: t.stranger.groupId,
      assetId: '999-999',
      id: randomUUID(),
    });
    const [row] = await t.trove.query<{ group_id: string }>(
      'SELECT group_id FROM entities WHERE id = $1',
      [body.id],
    );
    expect(row.group_id).toBe(t.owner.groupId);
    expect(body.assetId).not.toBe('999-999');
  });

  it('needs a token, and refuses viewers', async () => {
    await t.trove.http.post('/api/v1/entities').send({ name: 'x' }).expect(401);
    await t.trove.http
      .post('/api/v1/entities')
      .set('Authorization', 'Bearer junk')
      .send({ name: 'x' })
      .expect(401);
    const viewer = await signUpMember(t.trove, t.owner, 'viewer');
    const before = await countEntities(t.trove, t.owner);
    await t.trove.http
      .post('/api/v1/entities')
      .set('Authorization', viewer.authorization)
      .send({ name: 'x' })
      .expect(403, { error: 'viewers of this collection can only read' });
    expect(await countEntities(t.trove, t.owner)).toBe(before);
  });

  it('gives concurrent creates distinct asset ids', async () => {
    const bodies = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createEntity(t.trove, t.owner, { name: `Parallel ${i}` }),
      ),
    );
    const ids = bodies.map((body) => body.assetId);
    expect(new Set(ids).size).toBe(12);
    expect(ids.every((id) => /^\d{3}-\d{3}$/.test(id))).toBe(true);
  });
});
