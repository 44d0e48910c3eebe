import { expect } from 'vitest';
import { dayIn } from '../../src/platform/calendar/calendar-day.js';
import { as } from '../support/api.js';
import type { Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
export { UNKNOWN_ID, as, createEntity } from '../support/api.js';
export {
  BAD_TOKEN,
  NO_TOKEN,
  VIEWER_ONLY_READS,
  expectUnauthenticated,
} from '../support/auth-expectations.js';

/** Days far enough on either side of today that the day of the run does not matter. */
export const PAST = '2001-02-03';
export const FUTURE = '2999-12-31';

export const CHECKOUT_KEYS = [
  'borrower',
  'checkedOutAt',
  'checkedOutBy',
  'dueOn',
  'entityId',
  'entityName',
  'id',
  'member',
  'notes',
  'outstanding',
  'quantity',
  'returnedAt',
  'returnedQuantity',
  'status',
];

export { validation } from '../support/auth-expectations.js';

export interface Person {
  id: string;
  name: string;
}

export interface CheckoutBody {
  id: string;
  entityId: string;
  entityName: string;
  quantity: number;
  returnedQuantity: number;
  outstanding: number;
  member: Person | null;
  borrower: string | null;
  dueOn: string | null;
  notes: string;
  status: 'open' | 'overdue' | 'returned';
  checkedOutAt: string;
  returnedAt: string | null;
  checkedOutBy: Person | null;
}

export interface CheckoutPageBody {
  page: number;
  pageSize: number;
  total: number;
  items: CheckoutBody[];
}

/**
 * A time zone whose day does not change for the next hour or so (its clock is between 01:00
 * and 22:00), so "today" computed by a test is the app's today too.
 */
export function steadyZone(): { zone: string; today: string } {
  const now = new Date();
  for (const zone of ['UTC', 'Asia/Tokyo', 'America/New_York']) {
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hour: '2-digit',
        hourCycle: 'h23',
      }).format(now),
    );
    if (hour >= 1 && hour < 22) return { zone, today: dayIn(zone, now) };
  }
  throw new Error('no steady time zone');
}

export async function checkOut(
  trove: TestApp,
  session: Session,
  entityId: string,
  body: Record<string, unknown>,
): Promise<CheckoutBody> {
  const response = await as(trove, session, 'post', `/api/v1/entities/${entityId}/checkouts`).send(
    body,
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as CheckoutBody;
}

export async function returnCheckout(
  trove: TestApp,
  session: Session,
  checkout: Pick<CheckoutBody, 'id' | 'entityId'>,
  body: Record<string, unknown> = {},
): Promise<CheckoutBody> {
  const response = await as(
    trove,
    session,
    'post',
    `/api/v1/entities/${checkout.entityId}/checkouts/${checkout.id}/return`,
  ).send(body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as CheckoutBody;
}

export async function entityCheckouts(
  trove: TestApp,
  session: Session,
  entityId: string,
): Promise<CheckoutBody[]> {
  const response = await as(trove, session, 'get', `/api/v1/entities/${entityId}/checkouts`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as CheckoutBody[];
}

/** Makes a check-out overdue by moving its due day into the past, as time would. */
export async function makeOverdue(trove: TestApp, checkoutId: string, day = PAST): Promise<void> {
  await trove.query('UPDATE checkouts SET due_on = $2 WHERE id = $1', [checkoutId, day]);
}

/** Every stored check-out of a group, as text (what nothing-written checks compare). */
export const storedCheckouts = (trove: TestApp, groupId: string) =>
  trove.query(
    `SELECT id, entity_id, quantity, returned_quantity, member_id, borrower,
            due_on::text AS due_on, notes, checked_out_by, created_at::text AS created_at,
            updated_at::text AS updated_at, returned_at::text AS returned_at
       FROM checkouts WHERE group_id = $1 ORDER BY id`,
    [groupId],
  );
