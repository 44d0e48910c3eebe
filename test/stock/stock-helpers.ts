import { expect } from 'vitest';
import { as } from '../support/api.js';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
export { UNKNOWN_ID, as, createEntity, useTestApp } from '../support/api.js';
export { expectUnauthenticated, VIEWER_ONLY_READS } from '../support/auth-expectations.js';
export { makeEntity } from '../statistics/statistics-helpers.js';
export {
  addNotifier,
  startWebhook,
  type Delivery,
  type WebhookStandIn,
} from '../notifiers/notifier-helpers.js';

export const STOCK_KEYS = ['entityId', 'expiresOn', 'minQuantity', 'notes', 'reorderQuantity'];
export const LOW_KEYS = [
  'assetId',
  'id',
  'location',
  'minQuantity',
  'name',
  'quantity',
  'reorder',
  'reorderQuantity',
];
export const EXPIRING_KEYS = [
  'assetId',
  'daysLeft',
  'expired',
  'expiresOn',
  'id',
  'location',
  'name',
  'quantity',
];

export const stockPath = (entityId: string): string => `/api/v1/entities/${entityId}/stock`;

export { validation } from '../support/auth-expectations.js';

/** Sets an entity's stock settings through the API and expects 200. */
export async function putStock(
  trove: TestApp,
  session: Session,
  entityId: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const response = await as(trove, session, 'put', stockPath(entityId)).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as Record<string, unknown>;
}

/** Every stored stock row of a group, as text (what nothing-written checks compare). */
export const storedStock = (trove: TestApp, groupId: string) =>
  trove.query(
    `SELECT entity_id, group_id, min_quantity, reorder_quantity, expires_on::text AS expires_on,
            notes, low_alerted, created_at::text AS created_at, updated_at::text AS updated_at
       FROM entity_stock WHERE group_id = $1 ORDER BY entity_id`,
    [groupId],
  );

/**
 * Waits until every low-stock alert has been drained and every queued delivery has run: from
 * then on, what the stand-in received is all that the changes so far send.
 */
export async function settled(trove: TestApp): Promise<void> {
  for (;;) {
    const [row] = await trove.query<{ alerts: number; deliveries: number }>(
      `SELECT (SELECT count(*)::int FROM stock_alerts) AS alerts,
              (SELECT count(*)::int FROM pgboss.job WHERE name = 'notifiers.deliver'
                 AND state IN ('created', 'retry', 'active')) AS deliveries`,
    );
    if (row.alerts === 0 && row.deliveries === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
