import { describe, expect, it } from 'vitest';
import { as, useSecondInstance, useSharedApp } from '../support/api.js';
import type { Session } from '../support/factories.js';
import { makeEntity, typeId } from './statistics-helpers.js';

const PATH = '/api/v1/groups/statistics/locations';

interface Total {
  id: string;
  name: string;
  total: number;
}

describe('GET /api/v1/groups/statistics/locations: the totals kept between changes', () => {
  const t = useSharedApp();
  const second = useSecondInstance(t);

  /** The totals counted afresh from the entities themselves, not from the kept sums. */
  async function counted(session: Session): Promise<Total[]> {
    return t.trove.query<Total>(
      `SELECT l.id, l.name, sum(c.purchase_price)::float8 AS total
       FROM entities l JOIN entity_types lt ON lt.id = l.entity_type_id AND lt.is_location
       JOIN entities c ON c.parent_id = l.id
       JOIN entity_types ct ON ct.id = c.entity_type_id AND NOT ct.is_location
       WHERE l.group_id = $1 GROUP BY l.id, l.name HAVING sum(c.purchase_price) > 0
       ORDER BY total DESC, l.id`,
      [session.groupId],
    );
  }

  const byId = (rows: Total[]): Total[] => [...rows].sort((a, b) => a.id.localeCompare(b.id));

  /** Both instances answer the totals as counted; returns the first one's ETag. */
  async function expectCurrent(session: Session): Promise<string> {
    const expected = byId(await counted(session));
    const etags = [];
    for (const http of [t.trove.http, second.instance.http]) {
      const response = await http.get(PATH).set('Authorization', session.authorization).expect(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(byId(response.body as Total[])).toEqual(expected);
      etags.push(response.headers.etag);
    }
    expect(etags[1]).toBe(etags[0]);
    return etags[0];
  }

  it('follows every change of the prices, places and names at once, on both instances', async () => {
    const owner = t.owner;
    const garage = await makeEntity(t.trove, owner, { name: 'Garage A', location: true });
    const cellar = await makeEntity(t.trove, owner, { name: 'Cellar A', location: true });
    const drill = await makeEntity(t.trove, owner, {
      name: 'Drill',
      parentId: garage.id,
      purchasePrice: 120,
    });
    const etags = [await expectCurrent(owner)];
    expect(etags[0]).toMatch(new RegExp(`^"${owner.groupId}\\.\\d+\\.\\d+"$`));
    const changed = async (): Promise<void> => {
      const etag = await expectCurrent(owner);
      expect(etags).not.toContain(etag);
      etags.push(etag);
    };
    const put = (id: string, body: object) =>
      as(t.trove, owner, 'put', `/api/v1/entities/${id}`).send(body).expect(200);

    await put(drill.id, { name: 'Drill', parentId: garage.id, purchasePrice: 95.5, quantity: 1 });
    await changed();
    await as(t.trove, owner, 'patch', `/api/v1/entities/${drill.id}`)
      .send({ parentId: cellar.id })
      .expect(200);
    await changed();
    const saw = await makeEntity(t.trove, owner, {
      name: 'Saw',
      parentId: garage.id,
      purchasePrice: 40,
    });
    await changed();
    await put(garage.id, { name: 'Garage B', parentId: null, quantity: 1 });
    await changed();
    // An item that becomes a location no longer counts as its parent's item.
    await as(t.trove, owner, 'patch', `/api/v1/entities/${saw.id}`)
      .send({ entityTypeId: await typeId(t.trove, owner, 'Location') })
      .expect(200);
    await changed();
    await as(t.trove, owner, 'delete', `/api/v1/entities/${drill.id}`).expect(204);
    await changed();
    await as(t.trove, owner, 'delete', `/api/v1/entities/${garage.id}`).expect(204);
    await changed();
    // An item without a price, created and renamed, changes no total.
    const rug = await makeEntity(t.trove, owner, { name: 'Rug', parentId: cellar.id });
    await put(rug.id, { name: 'Red rug', parentId: cellar.id, quantity: 1 });
    expect(await expectCurrent(owner)).toBe(etags.at(-1));
  });

  it('answers 304 to the ETag it gave until the totals change, and keeps groups apart', async () => {
    const owner = t.owner;
    const { etag } = (await as(t.trove, owner, 'get', PATH).expect(200)).headers;
    await as(t.trove, owner, 'get', PATH).set('If-None-Match', etag).expect(304);
    // Another group's change leaves this group's totals as they are.
    const shed = await makeEntity(t.trove, t.stranger, { name: 'Their shed', location: true });
    await makeEntity(t.trove, t.stranger, { name: 'Saw', parentId: shed.id, purchasePrice: 8 });
    await as(t.trove, owner, 'get', PATH).set('If-None-Match', etag).expect(304);
    await as(t.trove, t.stranger, 'get', PATH).set('If-None-Match', etag).expect(200);
    const attic = await makeEntity(t.trove, owner, { name: 'Attic A', location: true });
    await makeEntity(t.trove, owner, { name: 'Lamp', parentId: attic.id, purchasePrice: 12 });
    const after = await as(t.trove, owner, 'get', PATH).set('If-None-Match', etag).expect(200);
    expect(byId(after.body as Total[])).toEqual(byId(await counted(owner)));
  });

  it('stays exact while both instances change prices and read the totals at once', async () => {
    const owner = t.owner;
    const places = await Promise.all(
      ['Hall', 'Loft'].map((name) => makeEntity(t.trove, owner, { name, location: true })),
    );
    const items = await Promise.all(
      Array.from({ length: 12 }, (_, k) =>
        makeEntity(t.trove, owner, {
          name: `Box ${k}`,
          parentId: places[k % 2].id,
          purchasePrice: k + 1,
        }),
      ),
    );
    const http = [t.trove.http, second.instance.http];
    await Promise.all(
      items.map(async (item, k) => {
        await http[k % 2]
          .put(`/api/v1/entities/${item.id}`)
          .set('Authorization', owner.authorization)
          .send({ name: item.name, parentId: places[(k + 1) % 2].id, purchasePrice: 3 * k + 0.5 })
          .expect(200);
        await http[(k + 1) % 2].get(PATH).set('Authorization', owner.authorization).expect(200);
      }),
    );
    await expectCurrent(owner);
  });
});
