import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { as, useSharedApp } from '../support/api.js';
import {
  createEmptyGroup,
  createIn,
  entityTypes,
  seedExportGroup,
} from '../entities-export/export-helpers.js';
import { IMPORT_URL, groupCounts } from './import-helpers.js';

/** An export's rows, each with its HB.url reduced to the kind it names, in a stable order. */
function comparable(text: string): { header: string[]; rows: string[][] } {
  const [header, ...rows]: string[][] = parse(text);
  const url = header.indexOf('HB.url');
  return {
    header,
    rows: rows
      .map((row) =>
        row.map((cell, index) =>
          index === url ? cell.replace(/^.*\/(item|location)\/[^/]+$/, '$1') : cell,
        ),
      )
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  };
}

describe('CSV export then import', () => {
  const t = useSharedApp();

  it('reproduces every entity, location path, tag, custom field and asset id in an empty group', async () => {
    const seed = await seedExportGroup(t.trove, t.owner);
    const types = await entityTypes(t.trove, seed.groupId);
    await createIn(t.trove, t.owner, seed.groupId, {
      name: 'Attic',
      entityTypeId: types.location,
      quantity: 1,
    });
    const exported = await as(t.trove, t.owner, 'get', '/api/v1/entities/export', seed.groupId);
    expect(exported.status).toBe(200);

    const copy = await createEmptyGroup(t.trove, t.owner, 'Copy');
    const imported = await as(t.trove, t.owner, 'post', IMPORT_URL, copy).attach(
      'csv',
      Buffer.from(exported.text),
      'export.csv',
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(204);

    const again = await as(t.trove, t.owner, 'get', '/api/v1/entities/export', copy);
    expect(again.status).toBe(200);
    const before = comparable(exported.text);
    expect(before.rows).toHaveLength(6);
    expect(comparable(again.text)).toEqual(before);
    const counts = await groupCounts(t.trove, seed.groupId);
    expect(await groupCounts(t.trove, copy)).toEqual(counts);

    // Kinds and nesting as in the original, item inside item included.
    const shape = (groupId: string) =>
      t.trove.query(
        `SELECT e.name, p.name AS parent, t.is_location AS "isLocation", e.asset_id::int AS "assetId"
         FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
         LEFT JOIN entities p ON p.id = e.parent_id
         WHERE e.group_id = $1 ORDER BY e.name`,
        [groupId],
      );
    expect(await shape(copy)).toEqual(await shape(seed.groupId));
    expect(await shape(copy)).toEqual([
      { name: 'Attic', parent: null, isLocation: true, assetId: 6 },
      { name: 'Drill "Pro"', parent: 'Toolbox', isLocation: false, assetId: 4 },
      { name: 'Garage, Shelf', parent: 'House', isLocation: true, assetId: 2 },
      { name: 'House', parent: null, isLocation: true, assetId: 1 },
      { name: 'Old lamp', parent: null, isLocation: false, assetId: 5 },
      { name: 'Toolbox', parent: 'Garage, Shelf', isLocation: false, assetId: 3 },
    ]);
  });
});
