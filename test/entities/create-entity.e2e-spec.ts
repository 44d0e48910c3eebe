import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  countEntities,
  createEntity,
  expectSummaryShape,
  locationId,
  tagId,
  typeId,
} from './entity-helpers.js';

describe('POST /api/v1/entities', () => {
  let trove: TestApp;
  let owner: Session;
  let stranger: Session;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove);
    stranger = await signUp(trove);
  });
  afterAll(() => trove.close());

  it('answers 201 with the whole summary view, every field of spec §2.1 with its type', async () => {
    const garage = await locationId(trove, owner, 'Garage');
    const tools = await tagId(trove, owner, 'General');
    const response = await trove.http
      .post('/api/v1/entities')
      .set('Authorization', owner.authorization)
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
    const read = await trove.http
      .get(`/api/v1/entities/${body.id}`)
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(read.body).toEqual(body);
  });

  it('defaults: quantity 1, the group’s item type, top level, no tags', async () => {
    const body = await createEntity(trove, owner, { name: 'Plain' });
    expect(body).toMatchObject({
      quantity: 1,
      parent: null,
      location: null,
      tags: [],
      description: '',
    });
    expect((body.entityType as { id: string }).id).toBe(await typeId(trove, owner, 'Item'));
  });

  it('makes the group a new item type when it has none left, and uses it', async () => {
    const alone = await signUp(trove);
    const itemType = await typeId(trove, alone, 'Item');
    await trove.http
      .delete(`/api/v1/entity-types/${itemType}`)
      .set('Authorization', alone.authorization)
      .expect(204);

    const body = await createEntity(trove, alone, { name: 'Typeless' });

    const entityType = body.entityType as { id: string; name: string; isLocation: boolean };
    expect(entityType).toMatchObject({ name: 'Item', isLocation: false });
    expect(entityType.id).not.toBe(itemType);
    const rows = await trove.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM entity_types WHERE group_id = $1 AND NOT is_location',
      [alone.groupId],
    );
    expect(rows).toEqual([{ count: 1 }]);
  });

  it('gives the next asset id after the highest in the group, as Homebox does', async () => {
    const alone = await signUp(trove);
    const [highest] = await trove.query<{ highest: number }>(
      'SELECT max(asset_id)::int AS highest FROM entities WHERE group_id = $1',
      [alone.groupId],
    );
    const next = (n: number): string => `000-${String(highest.highest + n).padStart(3, '0')}`;
    const first = await createEntity(trove, alone, { name: 'First' });
    const second = await createEntity(trove, alone, { name: 'Second' });
    expect([first.assetId, second.assetId]).toEqual([next(1), next(2)]);
    await trove.http
      .delete(`/api/v1/entities/${second.id}`)
      .set('Authorization', alone.authorization)
      .expect(204);

    const third = await createEntity(trove, alone, { name: 'Third' });

    expect(third.assetId).toBe(next(2));
  });

  it('creates a location when given a location type', async () => {
    const shelf = await createEntity(trove, owner, {
      name: 'Shelf',
      entityTypeId: await typeId(trove, owner, 'Location'),
    });
    expect(shelf.entityType).toMatchObject({ isLocation: true });
    const inside = await createEntity(trove, owner, { name: 'Box', parentId: shelf.id });
    expect(inside.parent).toMatchObject({ id: shelf.id, itemCount: 1 });
  });

  it('refuses bad input with 422 naming the fields, writing nothing', async () => {
    const before = await countEntities(trove, owner);
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
      const response = await trove.http
        .post('/api/v1/entities')
        .set('Authorization', owner.authorization)
        .send(body);
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), 422]);
      expect(response.body.error).toBe('Validation Error');
      expect(Object.keys(response.body.fields).sort()).toEqual(fields.sort());
    }
    expect(await countEntities(trove, owner)).toBe(before);
  });

  it('refuses another group’s parent, type and tags with 422, writing nothing', async () => {
    const before = await countEntities(trove, owner);
    const theirs = {
      parentId: await locationId(trove, stranger, 'Garage'),
      entityTypeId: await typeId(trove, stranger, 'Item'),
      tagIds: [await tagId(trove, stranger, 'General')],
    };
    for (const [field, value] of Object.entries(theirs)) {
      const response = await trove.http
        .post('/api/v1/entities')
        .set('Authorization', owner.authorization)
        .send({ name: 'Sneaky', [field]: value })
        .expect(422);
      expect(Object.keys(response.body.fields)).toEqual([field]);
    }
    expect(await countEntities(trove, owner)).toBe(before);
  });

  it('ignores keys it does not know, such as a group id or an asset id', async () => {
    const body = await createEntity(trove, owner, {
      name: 'Mine',
      groupId: stranger.groupId,
      assetId: '999-999',
      id: randomUUID(),
    });
    const [row] = await trove.query<{ group_id: string }>(
      'SELECT group_id FROM entities WHERE id = $1',
      [body.id],
    );
    expect(row.group_id).toBe(owner.groupId);
    expect(body.assetId).not.toBe('999-999');
  });

  it('needs a token, and refuses viewers', async () => {
    await trove.http.post('/api/v1/entities').send({ name: 'x' }).expect(401);
    await trove.http
      .post('/api/v1/entities')
      .set('Authorization', 'Bearer junk')
      .send({ name: 'x' })
      .expect(401);
    const viewer = await signUpMember(trove, owner, 'viewer');
    const before = await countEntities(trove, owner);
    await trove.http
      .post('/api/v1/entities')
      .set('Authorization', viewer.authorization)
      .send({ name: 'x' })
      .expect(403, { error: 'viewers of this collection can only read' });
    expect(await countEntities(trove, owner)).toBe(before);
  });

  it('gives concurrent creates distinct asset ids', async () => {
    const bodies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createEntity(trove, owner, { name: `Parallel ${i}` })),
    );
    const ids = bodies.map((body) => body.assetId);
    expect(new Set(ids).size).toBe(12);
    expect(ids.every((id) => /^\d{3}-\d{3}$/.test(id))).toBe(true);
  });
});
