import { expect } from 'vitest';
import { as } from '../support/api.js';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

/** Creates a group without starter locations or tags; the caller owns it. */
export async function createEmptyGroup(
  trove: TestApp,
  session: Session,
  name: string,
): Promise<string> {
  const response = await as(trove, session, 'post', '/api/v1/groups').send({ name });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body as { id: string }).id;
}

/** The ids of entity types "Item" and "Location" of a group. */
export async function entityTypes(
  trove: TestApp,
  groupId: string,
): Promise<{ item: string; location: string }> {
  const rows = await trove.query<{ id: string; name: string }>(
    `SELECT id, name FROM entity_types WHERE group_id = $1 AND name IN ('Item', 'Location')`,
    [groupId],
  );
  return {
    item: rows.find((row) => row.name === 'Item')!.id,
    location: rows.find((row) => row.name === 'Location')!.id,
  };
}

/** Creates an entity in `groupId` through the API and returns its id. */
export async function createIn(
  trove: TestApp,
  session: Session,
  groupId: string,
  body: Record<string, unknown>,
): Promise<string> {
  const response = await as(trove, session, 'post', '/api/v1/entities', groupId).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body as { id: string }).id;
}

/** Creates a tag in `groupId` through the API and returns its id. */
export async function createTagIn(
  trove: TestApp,
  session: Session,
  groupId: string,
  name: string,
): Promise<string> {
  const response = await as(trove, session, 'post', '/api/v1/tags', groupId).send({ name });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body as { id: string }).id;
}

/** Replaces an entity's editable state through the API. */
export async function replaceIn(
  trove: TestApp,
  session: Session,
  groupId: string,
  id: string,
  body: Record<string, unknown>,
): Promise<void> {
  const response = await as(trove, session, 'put', `/api/v1/entities/${id}`, groupId).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** Gives an entity an import ref (only the CSV import sets one; no route does). */
export async function setImportRef(trove: TestApp, id: string, ref: string): Promise<void> {
  await trove.query('UPDATE entities SET import_ref = $2 WHERE id = $1', [id, ref]);
}

/**
 * Adds `count` items named `Bulk <n>` straight to a group (faster than the API for thousands),
 * and returns their ids.
 */
export async function insertItems(
  trove: TestApp,
  groupId: string,
  itemTypeId: string,
  count: number,
): Promise<string[]> {
  const rows = await trove.query<{ id: string }>(
    `INSERT INTO entities (group_id, entity_type_id, name, quantity, purchase_price, asset_id)
     SELECT $1, $2, 'Bulk ' || n, n, 1.25, n FROM generate_series(1, $3::int) AS n
     RETURNING id`,
    [groupId, itemTypeId, count],
  );
  return rows.map((row) => row.id);
}

/** The lines of a CSV body that has no line breaks inside cells. */
export const lines = (text: string): string[] => text.replace(/\n$/, '').split('\n');

/** Entries sorted by id, as the files list entities. */
export const byId = <T extends { id: string }>(entries: T[]): T[] =>
  [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** The entities of `seedExportGroup`, by name. */
export interface ExportSeed {
  groupId: string;
  house: string;
  shelf: string;
  toolbox: string;
  drill: string;
  lamp: string;
}

/**
 * A group of its own for `session` holding: the location House, the location "Garage, Shelf"
 * inside it, the item Toolbox (import ref `box-1`) on the shelf, the item `Drill "Pro"` (import
 * ref `drill-1`) inside the toolbox with every column filled, and the archived, sold item
 * Old lamp at the top level. Tags Tools and electronics; custom fields Colour and Voltage.
 */
export async function seedExportGroup(trove: TestApp, session: Session): Promise<ExportSeed> {
  const groupId = await createEmptyGroup(trove, session, 'Export');
  const types = await entityTypes(trove, groupId);
  const tools = await createTagIn(trove, session, groupId, 'Tools');
  const electronics = await createTagIn(trove, session, groupId, 'electronics');
  const house = await createIn(trove, session, groupId, {
    name: 'House',
    entityTypeId: types.location,
    quantity: 1,
  });
  const shelf = await createIn(trove, session, groupId, {
    name: 'Garage, Shelf',
    description: 'Left wall',
    entityTypeId: types.location,
    parentId: house,
    quantity: 1,
  });
  const toolbox = await createIn(trove, session, groupId, { name: 'Toolbox', parentId: shelf });
  await replaceIn(trove, session, groupId, toolbox, {
    name: 'Toolbox',
    parentId: shelf,
    quantity: 3,
    purchasePrice: 0.1,
    manufacturer: 'Stanley',
    tagIds: [tools],
    fields: [{ type: 'text', name: 'Colour', textValue: 'grey' }],
    assetId: '000-003',
  });
  const drill = await createIn(trove, session, groupId, { name: 'Drill', parentId: toolbox });
  await replaceIn(trove, session, groupId, drill, {
    name: 'Drill "Pro"',
    description: 'Cordless, 18 V',
    quantity: 2.5,
    parentId: toolbox,
    tagIds: [tools, electronics],
    fields: [
      { type: 'text', name: 'Voltage', textValue: '18 V' },
      { type: 'text', name: 'Colour', textValue: 'red, "bright"' },
    ],
    assetId: '000-004',
    serialNumber: 'SN-1',
    modelNumber: 'DP-18',
    manufacturer: 'Bosch',
    insured: true,
    lifetimeWarranty: true,
    warrantyExpires: '2028-05-31',
    warrantyDetails: 'Two years',
    purchaseDate: '2025-01-15',
    purchaseFrom: 'Hardware store',
    purchasePrice: 19.99,
    notes: 'Line one\nLine two',
  });
  const lamp = await createIn(trove, session, groupId, { name: 'Old lamp', quantity: 1 });
  await replaceIn(trove, session, groupId, lamp, {
    name: 'Old lamp',
    quantity: 1,
    archived: true,
    assetId: '000-005',
    purchasePrice: 30,
    soldDate: '2026-02-01',
    soldTo: 'Neighbour',
    soldPrice: 12.5,
    soldNotes: 'Cash',
  });
  await setImportRef(trove, toolbox, 'box-1');
  await setImportRef(trove, drill, 'drill-1');
  return { groupId, house, shelf, toolbox, drill, lamp };
}
