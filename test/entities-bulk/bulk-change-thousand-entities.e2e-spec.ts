import { performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, createEntity, useSharedApp } from '../support/api.js';
import type { Session } from '../support/factories.js';
import { typeId } from '../entities/entity-helpers.js';

const PATH = '/api/v1/entities/bulk';
const COUNT = 1000;

/**
 * Every action on the most entities one call takes, with its effect read back through the
 * list. How long each took is logged (for the README and reviews), never asserted.
 */
describe('POST /api/v1/entities/bulk with 1000 entities', () => {
  const t = useSharedApp();
  let ids: string[];
  let shelf: string;
  let tag: string;

  beforeAll(async () => {
    const csv = [
      'HB.name\tHB.location\tHB.purchase_price\tHB.quantity',
      ...Array.from(
        { length: COUNT },
        (_, k) => `Bulk thing ${k}\tWarehouse / Shelf A\t${k % 13}.5\t${1 + (k % 3)}`,
      ),
    ].join('\n');
    await as(t.trove, t.owner, 'post', '/api/v1/entities/import')
      .attach('csv', Buffer.from(csv), {
        filename: 'things.tsv',
        contentType: 'text/tab-separated-values',
      })
      .expect(204);
    const rows = await t.trove.query<{ id: string }>(
      `SELECT id FROM entities WHERE group_id = $1 AND name LIKE 'Bulk thing %' ORDER BY id`,
      [t.owner.groupId],
    );
    ids = rows.map((row) => row.id);
    expect(ids).toHaveLength(COUNT);
    shelf = (
      await createEntity(t.trove, t.owner, {
        name: 'Shelf B',
        entityTypeId: await typeId(t.trove, t.owner, 'Location'),
      })
    ).id;
    tag = (
      (await as(t.trove, t.owner, 'post', '/api/v1/tags').send({ name: 'Counted' }).expect(201))
        .body as { id: string }
    ).id;
  });

  /** Sends the change, logs how long it took, and expects it to have changed every entity. */
  const timed = async (body: Record<string, unknown>): Promise<void> => {
    const started = performance.now();
    const response = await as(t.trove, t.owner, 'post', PATH).send({ ids, ...body });
    const elapsed = performance.now() - started;
    console.log(`bulk ${String(body.action)} of ${COUNT} entities: ${elapsed.toFixed(0)} ms`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({ updated: COUNT });
  };

  const total = async (session: Session, query: Record<string, unknown>): Promise<number> =>
    (
      (
        await as(t.trove, session, 'get', '/api/v1/entities')
          .query({ page: 1, pageSize: 1, ...query })
          .expect(200)
      ).body as { total: number }
    ).total;

  /** The kept counts and sums equal fresh ones, and so do the statistics read from them. */
  const expectStatisticsFresh = async (): Promise<void> => {
    expect(
      await t.trove.query(
        `SELECT entity_type_id, archived, entities::int, item_value::float8 AS value
         FROM entity_counts WHERE group_id = $1 AND (entities <> 0 OR item_value <> 0)
         ORDER BY 1, 2`,
        [t.owner.groupId],
      ),
    ).toEqual(
      await t.trove.query(
        `SELECT entity_type_id, archived, count(*)::int AS entities,
                sum(purchase_price * quantity::numeric)::float8 AS value
         FROM entities WHERE group_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
        [t.owner.groupId],
      ),
    );
    const stats = (await as(t.trove, t.owner, 'get', '/api/v1/groups/statistics').expect(200))
      .body as { totalItems: number; totalItemPrice: number };
    const [fresh] = await t.trove.query<{ items: number; value: number }>(
      `SELECT count(*)::int AS items, coalesce(sum(e.purchase_price * e.quantity::numeric), 0)::float8 AS value
       FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
       WHERE e.group_id = $1 AND NOT e.archived AND NOT t.is_location`,
      [t.owner.groupId],
    );
    expect({ items: stats.totalItems, value: stats.totalItemPrice }).toEqual(fresh);
  };

  it('moves, tags, archives, edits, untags, unarchives and deletes all of them, one call each', async () => {
    await timed({ action: 'move', parentId: shelf });
    expect(await total(t.owner, { parentIds: shelf })).toBe(COUNT);
    const [{ count: left }] = await t.trove.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM entities WHERE group_id = $1 AND name LIKE 'Bulk thing %'
       AND parent_id IS DISTINCT FROM $2`,
      [t.owner.groupId, shelf],
    );
    expect(left).toBe(0);

    await timed({ action: 'addTags', tagIds: [tag] });
    expect(await total(t.owner, { tags: tag })).toBe(COUNT);

    await timed({ action: 'archive' });
    expect(await total(t.owner, { parentIds: shelf })).toBe(0);
    expect(await total(t.owner, { parentIds: shelf, includeArchived: true })).toBe(COUNT);
    await expectStatisticsFresh();

    await timed({ action: 'unarchive' });
    expect(await total(t.owner, { parentIds: shelf })).toBe(COUNT);

    await timed({
      action: 'setFields',
      fields: { purchasePrice: 2.25, quantity: 4, manufacturer: 'Acme' },
    });
    const sample = (await as(t.trove, t.owner, 'get', `/api/v1/entities/${ids[500]}`).expect(200))
      .body as { purchasePrice: number; quantity: number; manufacturer: string };
    expect([sample.purchasePrice, sample.quantity, sample.manufacturer]).toEqual([2.25, 4, 'Acme']);
    await expectStatisticsFresh();
    expect(
      (
        (await as(t.trove, t.owner, 'get', '/api/v1/groups/statistics').expect(200)).body as {
          totalItemPrice: number;
        }
      ).totalItemPrice,
    ).toBe(COUNT * 2.25 * 4);

    await timed({ action: 'removeTags', tagIds: [tag] });
    expect(await total(t.owner, { tags: tag })).toBe(0);

    await timed({ action: 'delete' });
    expect(await total(t.owner, { parentIds: shelf, includeArchived: true })).toBe(0);
    const [{ count: remaining }] = await t.trove.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM entities WHERE id = ANY($1::uuid[])',
      [ids],
    );
    expect(remaining).toBe(0);
    await expectStatisticsFresh();
  });
});
