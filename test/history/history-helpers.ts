import { expect } from 'vitest';
import { as } from '../support/api.js';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';

export const ENTRY_KEYS = [
  'action',
  'actor',
  'changedAt',
  'changes',
  'entityId',
  'entityName',
  'id',
  'operation',
];

export interface HistoryChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface HistoryEntry {
  id: string;
  entityId: string;
  entityName: string;
  action: 'create' | 'update' | 'delete';
  operation: string;
  changedAt: string;
  actor: {
    type: string;
    id: string | null;
    name: string | null;
    apiKey: { id: string; name: string } | null;
    issuer: string | null;
  };
  changes: HistoryChange[];
}

export interface HistoryPage {
  page: number;
  pageSize: number;
  total: number;
  items: HistoryEntry[];
}

/** GET /entities/{id}/history as `session`, expecting 200. */
export async function historyOf(
  trove: TestApp,
  session: Session,
  entityId: string,
  query = '',
): Promise<HistoryPage> {
  const response = await as(trove, session, 'get', `/api/v1/entities/${entityId}/history${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as HistoryPage;
}

/** The actor a session's own changes are recorded with. */
export const userActor = (session: Session) => ({
  type: 'user',
  id: session.id,
  name: session.name,
  apiKey: null,
  issuer: null,
});

/** How many history rows the database holds for the entity. */
export async function storedHistory(trove: TestApp, entityId: string): Promise<number> {
  const [row] = await trove.query<{ count: string }>(
    'SELECT count(*) FROM entity_history WHERE entity_id = $1',
    [entityId],
  );
  return Number(row.count);
}
