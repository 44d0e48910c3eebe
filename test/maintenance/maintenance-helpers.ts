import { expect } from 'vitest';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { as } from '../support/api.js';
export { UNKNOWN_ID, as, createEntity } from '../support/api.js';
export {
  BAD_TOKEN,
  FORGED_TOKEN,
  NO_TOKEN,
  VIEWER_ONLY_READS,
  expectUnauthenticated,
} from '../support/auth-expectations.js';

/** A well-formed id that belongs to nothing. */

/** Dates on either side of today, far enough that the day of the run does not matter. */
export const PAST = '2001-02-03';
export const FUTURE = '2999-12-31';

export const ENTRY_KEYS = ['completedDate', 'cost', 'description', 'id', 'name', 'scheduledDate'];
export const DETAILS_KEYS = [...ENTRY_KEYS, 'itemID', 'itemName'].sort();

export const COST_ERROR =
  'cost must be a non-negative amount written as text with at most 4 decimals, such as "12.50"';
export const NO_DATE_ERROR = 'either completedDate or scheduledDate must be set';
export const dateError = (field: string): string =>
  `${field} must be a date as YYYY-MM-DD, MM/DD/YYYY or RFC 3339`;
export { validation } from '../support/auth-expectations.js';

export interface EntryBody {
  id: string;
  name: string;
  description: string;
  completedDate: string;
  scheduledDate: string;
  cost: string;
}

export interface EntryWithDetailsBody extends EntryBody {
  itemName: string;
  itemID: string;
}

export interface EntryInput {
  name?: unknown;
  description?: unknown;
  completedDate?: unknown;
  scheduledDate?: unknown;
  cost?: unknown;
}

/** What an entry looks like on the wire; what is not given is the default. */
export const entryShape = (fields: Partial<EntryBody> & { name: string }): EntryBody => ({
  id: expect.any(String) as string,
  description: '',
  completedDate: '',
  scheduledDate: '',
  cost: '0',
  ...fields,
});

/** The list item of an entry of `entity`. */
export const withDetails = (
  entry: EntryBody,
  entity: { id: string; name: string },
): EntryWithDetailsBody => ({ ...entry, itemName: entity.name, itemID: entity.id });

export async function createEntry(
  trove: TestApp,
  session: Session,
  entityId: string,
  body: EntryInput,
): Promise<EntryBody> {
  const response = await as(trove, session, 'post', `/api/v1/entities/${entityId}/maintenance`)
    .send(body)
    .expect(201);
  return response.body as EntryBody;
}

export async function listEntityEntries(
  trove: TestApp,
  session: Session,
  entityId: string,
  status?: string,
): Promise<EntryWithDetailsBody[]> {
  const response = await as(trove, session, 'get', `/api/v1/entities/${entityId}/maintenance`)
    .query(status === undefined ? {} : { status })
    .expect(200);
  return response.body as EntryWithDetailsBody[];
}

export async function listGroupEntries(
  trove: TestApp,
  session: Session,
  status: string,
): Promise<EntryWithDetailsBody[]> {
  const response = await as(trove, session, 'get', '/api/v1/maintenance')
    .query({ status })
    .expect(200);
  return response.body as EntryWithDetailsBody[];
}

/** Every stored entry of a group's entities, as text (what nothing-written checks compare). */
export const storedEntries = (trove: TestApp, groupId: string) =>
  trove.query(
    `SELECT m.id, m.entity_id, m.name, m.description, m.date::text AS date,
            m.scheduled_date::text AS scheduled_date, m.cost::text AS cost,
            m.created_at::text AS created_at, m.updated_at::text AS updated_at
       FROM maintenance_entries m JOIN entities e ON e.id = m.entity_id
      WHERE e.group_id = $1 ORDER BY m.id`,
    [groupId],
  );
