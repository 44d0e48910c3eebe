import { expect } from 'vitest';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
export { createEntity, type EntityBody } from '../support/api.js';

/** The id of a seeded location of the session's group (Garage, Kitchen, ...). */
export async function locationId(trove: TestApp, session: Session, name: string): Promise<string> {
  const [row] = await trove.query<{ id: string }>(
    'SELECT id FROM entities WHERE group_id = $1 AND name = $2',
    [session.groupId, name],
  );
  return row.id;
}

export async function typeId(
  trove: TestApp,
  session: Session,
  name: 'Item' | 'Location',
): Promise<string> {
  const [row] = await trove.query<{ id: string }>(
    'SELECT id FROM entity_types WHERE group_id = $1 AND name = $2',
    [session.groupId, name],
  );
  return row.id;
}

export async function tagId(trove: TestApp, session: Session, name: string): Promise<string> {
  const [row] = await trove.query<{ id: string }>(
    'SELECT id FROM tags WHERE group_id = $1 AND name = $2',
    [session.groupId, name],
  );
  return row.id;
}

export const countEntities = async (trove: TestApp, session: Session): Promise<number> =>
  Number(
    (
      await trove.query<{ n: string }>('SELECT count(*) AS n FROM entities WHERE group_id = $1', [
        session.groupId,
      ])
    )[0].n,
  );

const ENTITY_TYPE_KEYS = [
  'createdAt',
  'defaultTemplate',
  'defaultTemplateId',
  'description',
  'icon',
  'id',
  'isLocation',
  'name',
  'updatedAt',
];
const TAG_KEYS = [
  'color',
  'createdAt',
  'description',
  'icon',
  'id',
  'name',
  'parentId',
  'updatedAt',
];
export const CHILD_SUMMARY_KEYS = [
  'archived',
  'assetId',
  'createdAt',
  'description',
  'entityType',
  'id',
  'imageId',
  'insured',
  'itemCount',
  'name',
  'parent',
  'purchasePrice',
  'quantity',
  'soldDate',
  'tags',
  'thumbnailId',
  'updatedAt',
];
export const SUMMARY_KEYS = [
  ...CHILD_SUMMARY_KEYS,
  'attachments',
  'children',
  'fields',
  'lifetimeWarranty',
  'location',
  'manufacturer',
  'modelNumber',
  'notes',
  'purchaseDate',
  'purchaseFrom',
  'serialNumber',
  'soldNotes',
  'soldPrice',
  'soldTo',
  'syncChildEntityLocations',
  'totalPrice',
  'warrantyDetails',
  'warrantyExpires',
].sort();

/** Checks the exact key set and the type of every key of a summary (spec §2.1). */
export function expectSummaryShape(body: Record<string, unknown>, keys = SUMMARY_KEYS): void {
  expect(Object.keys(body).sort()).toEqual([...keys].sort());
  const types: Record<string, string> = {
    archived: 'boolean',
    assetId: 'string',
    createdAt: 'string',
    updatedAt: 'string',
    name: 'string',
    description: 'string',
    quantity: 'number',
    insured: 'boolean',
    lifetimeWarranty: 'boolean',
    manufacturer: 'string',
    modelNumber: 'string',
    serialNumber: 'string',
    notes: 'string',
    purchaseDate: 'string',
    purchaseFrom: 'string',
    purchasePrice: 'number',
    soldDate: 'string',
    soldNotes: 'string',
    soldPrice: 'number',
    soldTo: 'string',
    syncChildEntityLocations: 'boolean',
    totalPrice: 'number',
    warrantyDetails: 'string',
    warrantyExpires: 'string',
    itemCount: 'number',
    id: 'string',
  };
  for (const [key, type] of Object.entries(types)) {
    if (key in body) expect([key, typeof body[key]]).toEqual([key, type]);
  }
  for (const key of ['imageId', 'thumbnailId']) {
    expect(body[key] === null || typeof body[key] === 'string').toBe(true);
  }
  for (const key of ['tags', 'attachments', 'fields', 'children']) {
    if (key in body) expect(Array.isArray(body[key])).toBe(true);
  }
  const entityType = body.entityType as Record<string, unknown>;
  expect(Object.keys(entityType).sort()).toEqual(ENTITY_TYPE_KEYS);
  for (const tag of body.tags as Record<string, unknown>[])
    expect(Object.keys(tag).sort()).toEqual(TAG_KEYS);
  if (body.parent !== null)
    expectSummaryShape(body.parent as Record<string, unknown>, CHILD_SUMMARY_KEYS);
}
