import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createEntity, locationId, typeId, type EntityBody } from './entity-helpers.js';

describe('tree, path, assets and custom-field names', () => {
  let trove: TestApp;
  let owner: Session;
  let stranger: Session;
  let shelf: EntityBody;
  let box: EntityBody;
  let cable: EntityBody;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove);
    stranger = await signUp(trove);
    const garage = await locationId(trove, owner, 'Garage');
    shelf = await createEntity(trove, owner, {
      name: 'shelf',
      parentId: garage,
      entityTypeId: await typeId(trove, owner, 'Location'),
    });
    box = await createEntity(trove, owner, { name: 'Box', parentId: shelf.id });
    cable = await createEntity(trove, owner, { name: 'Cable', parentId: box.id });
    await createEntity(trove, owner, { name: 'Loose item' });
    await trove.http
      .put(`/api/v1/entities/${box.id}`)
      .set('Authorization', owner.authorization)
      .send({
        name: 'Box',
        parentId: shelf.id,
        assetId: box.assetId,
        quantity: 1,
        fields: [
          { type: 'text', name: 'Colour', textValue: 'red' },
          { type: 'text', name: 'Size', textValue: 'L' },
        ],
      })
      .expect(200);
    await trove.http
      .put(`/api/v1/entities/${cable.id}`)
      .set('Authorization', owner.authorization)
      .send({
        name: 'Cable',
        parentId: box.id,
        assetId: cable.assetId,
        quantity: 1,
        fields: [{ type: 'text', name: 'Colour', textValue: 'blue' }],
      })
      .expect(200);
    await createEntity(trove, stranger, { name: 'Their box' });
  });
  afterAll(() => trove.close());

  it('GET /entities/tree lists locations inside locations, and with items the items inside them', async () => {
    const locations = await trove.http
      .get('/api/v1/entities/tree')
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(locations.body.map((node: { name: string }) => node.name)).toEqual([
      'Attic',
      'Basement',
      'Bathroom',
      'Bedroom',
      'Garage',
      'Kitchen',
      'Living Room',
      'Office',
    ]);
    const garage = locations.body.find((node: { name: string }) => node.name === 'Garage');
    expect(garage).toEqual({
      id: expect.any(String),
      name: 'Garage',
      type: 'location',
      children: [{ id: shelf.id, name: 'shelf', type: 'location', children: [] }],
    });
    const withItems = await trove.http
      .get('/api/v1/entities/tree')
      .query({ withItems: 'true' })
      .set('Authorization', owner.authorization)
      .expect(200);
    const garageWithItems = withItems.body.find((node: { name: string }) => node.name === 'Garage');
    expect(garageWithItems.children).toEqual([
      {
        id: shelf.id,
        name: 'shelf',
        type: 'location',
        children: [
          {
            id: box.id,
            name: 'Box',
            type: 'item',
            children: [{ id: cable.id, name: 'Cable', type: 'item', children: [] }],
          },
        ],
      },
    ]);
    expect(JSON.stringify(withItems.body)).not.toContain('Loose item');
    expect(JSON.stringify(withItems.body)).not.toContain('Their box');
    await trove.http.get('/api/v1/entities/tree').expect(401);
  });

  it('GET /entities/{id}/path runs from the top level down to the entity', async () => {
    const response = await trove.http
      .get(`/api/v1/entities/${cable.id}/path`)
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(response.body).toEqual([
      { type: 'location', id: expect.any(String), name: 'Garage' },
      { type: 'location', id: shelf.id, name: 'shelf' },
      { type: 'item', id: box.id, name: 'Box' },
      { type: 'item', id: cable.id, name: 'Cable' },
    ]);
    await trove.http
      .get(`/api/v1/entities/${cable.id}/path`)
      .set('Authorization', stranger.authorization)
      .expect(404);
    await trove.http
      .get(`/api/v1/entities/${randomUUID()}/path`)
      .set('Authorization', owner.authorization)
      .expect(404);
  });

  it('GET /assets/{id} finds entities by asset id, written either way', async () => {
    const expected = {
      page: -1,
      pageSize: -1,
      total: 1,
      items: [expect.objectContaining({ id: box.id, name: 'Box', assetId: box.assetId })],
    };
    const formatted = await trove.http
      .get(`/api/v1/assets/${box.assetId}`)
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(formatted.body).toEqual(expected);
    const plain = await trove.http
      .get(`/api/v1/assets/${Number(box.assetId.replace('-', ''))}`)
      .query({ page: 1, pageSize: 50 })
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(plain.body).toEqual({ ...expected, page: 1, pageSize: 50 });
    const theirs = await trove.http
      .get(`/api/v1/assets/${box.assetId}`)
      .set('Authorization', stranger.authorization)
      .expect(200);
    expect(theirs.body.items.map((item: { id: string }) => item.id)).not.toContain(box.id);
    await trove.http
      .get('/api/v1/assets/abc')
      .set('Authorization', owner.authorization)
      .expect(400, { error: 'invalid asset id: abc' });
  });

  it('GET /entities/fields and /entities/fields/values list the group’s field names and text values', async () => {
    const names = await trove.http
      .get('/api/v1/entities/fields')
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(names.body).toEqual(['Colour', 'Size']);
    const values = await trove.http
      .get('/api/v1/entities/fields/values')
      .query({ field: 'Colour' })
      .set('Authorization', owner.authorization)
      .expect(200);
    expect(values.body).toEqual(['blue', 'red']);
    const theirs = await trove.http
      .get('/api/v1/entities/fields')
      .set('Authorization', stranger.authorization)
      .expect(200);
    expect(theirs.body).toEqual([]);
    const missing = await trove.http
      .get('/api/v1/entities/fields/values')
      .set('Authorization', owner.authorization)
      .expect(422);
    expect(Object.keys(missing.body.fields)).toEqual(['field']);
  });
});
