import { nameOrder } from '../../platform/database/name-order.js';
import type { CheckoutFilterStatus, CheckoutSort } from './dto/list-checkouts.query.dto.js';

/** A check-out with its entity's name and the names of the users it names. */
const VIEW_COLUMNS = `c.id, c.entity_id AS "entityId", e.name AS "entityName", c.quantity,
    c.returned_quantity AS "returnedQuantity", c.member_id AS "memberId",
    m.name AS "memberName", c.borrower, to_char(c.due_on, 'YYYY-MM-DD') AS "dueOn", c.notes,
    c.created_at AS "createdAt", c.returned_at AS "returnedAt",
    c.checked_out_by AS "checkedOutById", b.name AS "checkedOutByName"
  FROM checkouts c
  JOIN entities e ON e.id = c.entity_id
  LEFT JOIN users m ON m.id = c.member_id
  LEFT JOIN users b ON b.id = c.checked_out_by`;

/** Check-out `$1` of group `$2`, as a view row. */
export const CHECKOUT_VIEW = `SELECT ${VIEW_COLUMNS} WHERE c.id = $1 AND c.group_id = $2`;

/** Every check-out of entity `$1`, newest first. */
export const ENTITY_CHECKOUTS = `SELECT ${VIEW_COLUMNS}
  WHERE c.entity_id = $1 ORDER BY c.created_at DESC, c.id DESC`;

/**
 * How many of entity `$1` are out: Σ (quantity − returned) over its check-outs not returned
 * (as a double, like the entity's quantity, so no sum of integers overflows).
 */
export const OUTSTANDING_OF_ENTITY = `SELECT COALESCE(sum(quantity - returned_quantity), 0)::float8 AS outstanding
  FROM checkouts WHERE entity_id = $1 AND returned_at IS NULL`;

/** Inserts a check-out; its id. */
export const INSERT_CHECKOUT = `INSERT INTO checkouts
    (group_id, entity_id, quantity, member_id, borrower, due_on, notes, checked_out_by)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`;

/**
 * Takes back `$2` of check-out `$1`, its notes now `$3`; once all of it is back, it is returned
 * now. The caller checked (on the locked row) that `$2` is at most what is outstanding.
 */
export const RETURN_CHECKOUT = `UPDATE checkouts SET
    returned_quantity = returned_quantity + $2, notes = $3,
    returned_at = CASE WHEN returned_quantity + $2 = quantity THEN now() END,
    updated_at = now()
  WHERE id = $1`;

/** What each status means as of a day (`$d`, `YYYY-MM-DD`). */
const STATUS_CONDITION: Record<CheckoutFilterStatus, string> = {
  out: 'c.returned_at IS NULL',
  open: 'c.returned_at IS NULL AND (c.due_on IS NULL OR c.due_on >= $d::date)',
  overdue: 'c.returned_at IS NULL AND c.due_on < $d::date',
  returned: 'c.returned_at IS NOT NULL',
};

/** The group list's filter, as SQL text and its values. */
export interface CheckoutFilter {
  groupId: string;
  status?: CheckoutFilterStatus;
  memberId?: string;
  /** Only those not returned and due between `today` and this many days after. */
  dueWithin?: number;
  /** The day the statuses are measured against. */
  today: string;
}

/** The order of each sort, ascending; a descending list turns the key, not the tie-breakers. */
const SORT_KEYS: Record<CheckoutSort, (direction: string) => string> = {
  due: (direction) => `c.due_on ${direction} NULLS LAST`,
  checkedOut: (direction) => `c.created_at ${direction}`,
  item: (direction) =>
    nameOrder('e')
      .split(',')
      .map((part) => `${part.trim()} ${direction}`)
      .join(', '),
  who: (direction) => `lower(COALESCE(m.name, c.borrower) COLLATE "C") ${direction}`,
};

/**
 * The group list's WHERE with its values, `$1` the group; a page query adds its LIMIT and
 * OFFSET as the next two values.
 */
function listWhere(filter: CheckoutFilter): { where: string; values: unknown[] } {
  const values: unknown[] = [filter.groupId];
  const conditions = ['c.group_id = $1'];
  if (filter.memberId !== undefined) {
    values.push(filter.memberId);
    conditions.push(`c.member_id = $${values.length}`);
  }
  if (filter.status !== undefined) {
    const condition = STATUS_CONDITION[filter.status];
    if (condition.includes('$d')) values.push(filter.today);
    conditions.push(condition.replaceAll('$d', `$${values.length}`));
  }
  if (filter.dueWithin !== undefined) {
    values.push(filter.today, filter.dueWithin);
    const [day, days] = [`$${values.length - 1}::date`, `$${values.length}::int`];
    conditions.push(`c.returned_at IS NULL AND c.due_on BETWEEN ${day} AND ${day} + ${days}`);
  }
  return { where: `WHERE ${conditions.join(' AND ')}`, values };
}

/**
 * A page of the group's check-outs in `sort` order (by default by due day, none last), then
 * oldest first.
 */
export function groupCheckoutsPage(
  filter: CheckoutFilter,
  sort: { by: CheckoutSort; order: 'asc' | 'desc' },
  limit: number,
  offset: number,
): { text: string; values: unknown[] } {
  const { where, values } = listWhere(filter);
  values.push(limit, offset);
  const key = SORT_KEYS[sort.by](sort.order === 'desc' ? 'DESC' : 'ASC');
  return {
    text: `SELECT ${VIEW_COLUMNS} ${where}
  ORDER BY ${key}, c.created_at ASC, c.id ASC
  LIMIT $${values.length - 1} OFFSET $${values.length}`,
    values,
  };
}

/** How many of the group's check-outs the filter matches. */
export function countGroupCheckouts(filter: CheckoutFilter): { text: string; values: unknown[] } {
  const { where, values } = listWhere(filter);
  return { text: `SELECT count(*)::int AS total FROM checkouts c ${where}`, values };
}

/**
 * Check-outs of every group not fully returned whose due day is before `$1`, with the entity's
 * name and who has them: what the daily reminder lists as overdue. By group, then due day.
 */
export const OVERDUE_CHECKOUTS = `SELECT c.group_id AS "groupId", e.name AS "entityName",
    c.quantity - c.returned_quantity AS outstanding, COALESCE(m.name, c.borrower) AS who,
    to_char(c.due_on, 'YYYY-MM-DD') AS "dueOn"
  FROM checkouts c
  JOIN entities e ON e.id = c.entity_id
  LEFT JOIN users m ON m.id = c.member_id
  WHERE c.returned_at IS NULL AND c.due_on < $1
  ORDER BY c.group_id, c.due_on, lower(e.name COLLATE "C"), c.created_at, c.id`;
