import { expect } from 'vitest';
import { as, createEntity, type EntityBody } from '../support/api.js';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

/** What a test entity is made of; prices and flags are set by a PUT after the create. */
export interface EntitySpec {
  name: string;
  location?: boolean;
  parentId?: string;
  tagIds?: string[];
  quantity?: number;
  purchasePrice?: number;
  archived?: boolean;
  lifetimeWarranty?: boolean;
  warrantyExpires?: string;
}

/** The id of the group's entity type "Item" or "Location", read through the API. */
export async function typeId(
  trove: TestApp,
  session: Session,
  name: 'Item' | 'Location',
): Promise<string> {
  const response = await as(trove, session, 'get', '/api/v1/entity-types').expect(200);
  const type = (response.body as { id: string; name: string }[]).find((t) => t.name === name);
  expect(type, `entity type ${name}`).toBeDefined();
  return type!.id;
}

/** Creates an entity through the API with these prices, flags, parent and tags. */
export async function makeEntity(
  trove: TestApp,
  session: Session,
  spec: EntitySpec,
): Promise<EntityBody> {
  const entityTypeId = await typeId(trove, session, spec.location ? 'Location' : 'Item');
  const common = {
    name: spec.name,
    entityTypeId,
    parentId: spec.parentId ?? null,
    tagIds: spec.tagIds ?? [],
    quantity: spec.quantity ?? 1,
  };
  const created = await createEntity(trove, session, common);
  const response = await as(trove, session, 'put', `/api/v1/entities/${created.id}`).send({
    ...common,
    purchasePrice: spec.purchasePrice ?? 0,
    archived: spec.archived ?? false,
    lifetimeWarranty: spec.lifetimeWarranty ?? false,
    warrantyExpires: spec.warrantyExpires ?? null,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as EntityBody;
}

/** Creates a tag through the API and returns its id. */
export async function makeTag(trove: TestApp, session: Session, name: string): Promise<string> {
  const response = await as(trove, session, 'post', '/api/v1/tags').send({ name });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return (response.body as { id: string }).id;
}

/** A user's GET of a statistics path, expected to answer 200. */
export async function readStatistics(
  trove: TestApp,
  session: Session,
  path: string,
): Promise<unknown> {
  const response = await as(trove, session, 'get', `/api/v1/groups/statistics${path}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}
