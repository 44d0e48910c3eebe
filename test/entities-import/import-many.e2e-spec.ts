import { describe, expect, it } from 'vitest';
import { as, useSharedApp } from '../support/api.js';
import { csv, groupCounts, importOk } from './import-helpers.js';

describe('POST /api/v1/entities/import with a large file', () => {
  const t = useSharedApp();

  it('imports 10,000 rows with their locations, tags and fields', async () => {
    const rows = [
      [
        'HB.import_ref',
        'HB.location',
        'HB.name',
        'HB.quantity',
        'HB.purchase_price',
        'HB.tags',
        'HB.field.Batch',
      ],
    ];
    for (let index = 0; index < 10_000; index++) {
      rows.push([
        `row-${index}`,
        `Warehouse ${index % 4} / Aisle ${index % 10}`,
        `Part ${index}`,
        String(index % 7),
        `${index % 100}.25`,
        `Bulk; Lot ${index % 5}`,
        index % 2 === 0 ? `B${index}` : '',
      ]);
    }
    const before = await groupCounts(t.trove, t.owner.groupId);
    await importOk(t.trove, t.owner, csv(rows));
    // 4 warehouses, 10 aisles under each of them reached (index % 4, index % 10 pair up as 20).
    const locations = await t.trove.query<{ n: string }>(
      `SELECT count(*) AS n FROM entities WHERE group_id = $1 AND (name LIKE 'Warehouse %' OR name LIKE 'Aisle %')`,
      [t.owner.groupId],
    );
    expect(Number(locations[0].n)).toBe(4 + 20);
    expect(await groupCounts(t.trove, t.owner.groupId)).toEqual({
      ...before,
      entities: before.entities + 10_000 + 24,
      tags: before.tags + 6,
      entityTags: before.entityTags + 20_000,
      fields: before.fields + 5_000,
    });
    const assetIds = await t.trove.query<{ min: string; max: string; distinct: string }>(
      `SELECT min(asset_id) AS min, max(asset_id) AS max, count(DISTINCT asset_id) AS distinct
       FROM entities WHERE group_id = $1 AND import_ref LIKE 'row-%'`,
      [t.owner.groupId],
    );
    expect(assetIds[0]).toEqual({ min: '33', max: '10032', distinct: '10000' });
    const page = await as(t.trove, t.owner, 'get', '/api/v1/entities?q=Part%209999').expect(200);
    expect(page.body.items).toEqual([
      expect.objectContaining({ name: 'Part 9999', quantity: 9999 % 7, purchasePrice: 99.25 }),
    ]);
  });
});
