import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import { expectUnauthenticated } from '../support/auth-expectations.js';
import { type EntityBody, seedNestedEntities } from './entity-helpers.js';

describe('GET /api/v1/entities/tree', () => {
  let shelf: EntityBody;
  let box: EntityBody;
  let cable: EntityBody;
  const t = useSharedApp(async ({ trove, owner, stranger }) => {
    ({ shelf, box, cable } = await seedNestedEntities(trove, owner, stranger));
  });

  it('GET /entities/tree lists locations inside locations, and with items the items inside them', async () => {
    const locations = await t.trove.http
      .get('/api/v1/entities/tree')
      .set('Authorization', t.owner.authorization)
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
    const withItems = await t.trove.http
      .get('/api/v1/entities/tree')
      .query({ withItems: 'true' })
      .set('Authorization', t.owner.authorization)
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
    await t.trove.http.get('/api/v1/entities/tree').expect(401);
  });

  it('needs a valid token', async () => {
    await expectUnauthenticated(t.trove, 'get', '/api/v1/entities/tree');
  });
});
