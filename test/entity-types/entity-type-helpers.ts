import { expect } from 'vitest';
import type { AuthUser } from '../../src/identity/auth/auth-user.js';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { as } from '../support/api.js';
export { UNKNOWN_ID, as } from '../support/api.js';
export {
  BAD_TOKEN,
  FORGED_TOKEN,
  NO_TOKEN,
  VIEWER_ONLY_READS,
  expectUnauthenticated,
} from '../support/auth-expectations.js';

/** A well-formed id that belongs to nothing. */

export const ENTITY_TYPES = '/api/v1/entity-types';

export const SUMMARY_KEYS = [
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

export interface TemplateBody {
  id: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

export interface EntityTypeBody {
  id: string;
  name: string;
  description: string;
  icon: string;
  isLocation: boolean;
  defaultTemplateId: string;
  defaultTemplate: TemplateBody | null;
  createdAt: string;
  updatedAt: string;
}

/** What an entity type looks like on the wire; unset fields take their defaults. */
export const typeShape = (fields: Partial<EntityTypeBody> & { name: string }): EntityTypeBody => ({
  id: expect.any(String),
  description: '',
  icon: '',
  isLocation: false,
  defaultTemplateId: '',
  defaultTemplate: null,
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
  ...fields,
});

export const validationError = (fields: Record<string, string>) => ({
  error: 'Validation Error',
  fields,
});

export async function listTypes(trove: TestApp, session: Session): Promise<EntityTypeBody[]> {
  const response = await as(trove, session, 'get', ENTITY_TYPES).expect(200);
  return response.body as EntityTypeBody[];
}

export async function createType(
  trove: TestApp,
  session: Session,
  body: object,
): Promise<EntityTypeBody> {
  const response = await as(trove, session, 'post', ENTITY_TYPES).send(body).expect(201);
  return response.body as EntityTypeBody;
}

/** The seeded type of a kind ("Item" or "Location") of the session's group. */
export async function seededType(
  trove: TestApp,
  session: Session,
  name: 'Item' | 'Location',
): Promise<EntityTypeBody> {
  const type = (await listTypes(trove, session)).find((candidate) => candidate.name === name);
  expect(type).toBeDefined();
  return type as EntityTypeBody;
}

/** Stores a template with SQL (there are no template endpoints yet) and returns its summary. */
export async function insertTemplate(
  trove: TestApp,
  groupId: string,
  name: string,
  description = '',
): Promise<TemplateBody> {
  const [row] = await trove.query<{ id: string; created_at: Date; updated_at: Date }>(
    `INSERT INTO entity_templates (group_id, name, description) VALUES ($1, $2, $3)
     RETURNING id, created_at, updated_at`,
    [groupId, name, description],
  );
  return {
    id: row.id,
    name,
    description,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Stores an entity of a type with SQL and returns its id. */
export async function insertEntity(
  trove: TestApp,
  groupId: string,
  entityTypeId: string,
  name = 'Drill',
): Promise<string> {
  const [row] = await trove.query<{ id: string }>(
    'INSERT INTO entities (group_id, entity_type_id, name) VALUES ($1, $2, $3) RETURNING id',
    [groupId, entityTypeId, name],
  );
  return row.id;
}

/** Every stored entity type row of a group, oldest first. */
export async function typeRows(
  trove: TestApp,
  groupId: string,
): Promise<Record<string, unknown>[]> {
  return trove.query(
    `SELECT id, name, description, icon, is_location, default_template_id, created_at, updated_at
     FROM entity_types WHERE group_id = $1 ORDER BY created_at, id`,
    [groupId],
  );
}

/** The caller as services see it, acting in their default group. */
export const authUserOf = (session: Session, groupId = session.groupId): AuthUser => ({
  id: session.id,
  credential: { kind: 'session', tokenId: 'test' },
  tokenRoles: ['user'],
  tenant: { groupId, role: 'owner' },
  groupId,
  role: 'owner',
});
