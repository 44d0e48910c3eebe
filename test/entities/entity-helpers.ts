import { expect } from 'vitest';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { createEntity, type EntityBody } from '../support/api.js';
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

/**
 * Garage > shelf (a location) > Box (with fields Colour=red, Size=L) > Cable (Colour=blue), a
 * loose item at the top level, and a box in the stranger's group.
 */
export async function seedNestedEntities(
  trove: TestApp,
  owner: Session,
  stranger: Session,
): Promise<{ shelf: EntityBody; box: EntityBody; cable: EntityBody }> {
  const garage = await locationId(trove, owner, 'Garage');
  const shelf = await createEntity(trove, owner, {
    name: 'shelf',
    parentId: garage,
    entityTypeId: await typeId(trove, owner, 'Location'),
  });
  const box = await createEntity(trove, owner, { name: 'Box', parentId: shelf.id });
  const cable = await createEntity(trove, owner, { name: 'Cable', parentId: box.id });
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
  return { shelf, box, cable };
}
