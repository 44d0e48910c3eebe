import { ancestorsOfEach } from '../../platform/database/hierarchy.sql.js';
import { nameOrder } from '../../platform/database/name-order.js';

/**
 * The stock settings of entity `$1` as the API shows them: its values, or (no row) nulls and
 * "". `$2` is the entity's group.
 */
export const FIND_STOCK = `SELECT s.min_quantity AS "minQuantity", s.reorder_quantity AS "reorderQuantity",
    to_char(s.expires_on, 'YYYY-MM-DD') AS "expiresOn", s.notes
  FROM entity_stock s WHERE s.entity_id = $1 AND s.group_id = $2`;

/**
 * Stores the settings of entity `$1` of group `$2` (a full replacement): `$3` minimum, `$4`
 * reorder quantity, `$5` expiry day, `$6` notes. The entity row is share-locked, so a concurrent
 * change of its quantity is checked against the settings either before or after them.
 */
export const UPSERT_STOCK = `INSERT INTO entity_stock AS s
    (entity_id, group_id, min_quantity, reorder_quantity, expires_on, notes)
  SELECT e.id, e.group_id, $3, $4, $5::date, $6 FROM entities e
  WHERE e.id = $1 AND e.group_id = $2 FOR SHARE
  ON CONFLICT (entity_id) DO UPDATE SET min_quantity = excluded.min_quantity,
    reorder_quantity = excluded.reorder_quantity, expires_on = excluded.expires_on,
    notes = excluded.notes, updated_at = now()
  RETURNING s.min_quantity AS "minQuantity", s.reorder_quantity AS "reorderQuantity",
    to_char(s.expires_on, 'YYYY-MM-DD') AS "expiresOn", s.notes`;

/**
 * Gives entity `$2` the settings of entity `$1` (a duplicate), both of group `$3`; the copy's
 * low state is worked out by the insert trigger, as for settings stored through the API.
 */
export const COPY_STOCK = `INSERT INTO entity_stock
    (entity_id, group_id, min_quantity, reorder_quantity, expires_on, notes)
  SELECT c.id, c.group_id, s.min_quantity, s.reorder_quantity, s.expires_on, s.notes
  FROM entity_stock s JOIN entities c ON c.id = $2 AND c.group_id = $3
  WHERE s.entity_id = $1 AND s.group_id = $3`;

/** Deletes the settings of entity `$1` of group `$2`. */
export const DELETE_STOCK = `DELETE FROM entity_stock WHERE entity_id = $1 AND group_id = $2`;

/**
 * `located(seed, location, path)`: for each row of `listed` (`id`, `parent_id`), its ancestors
 * from the top down as a JSON array of `{id, name}` and their names joined by ` / `.
 */
const located = (group: string): string => `${ancestorsOfEach('up', 'entities', 'listed', group)},
  located AS (
    SELECT u.seed, json_agg(json_build_object('id', p.id, 'name', p.name) ORDER BY u.depth DESC) AS location,
      string_agg(p.name, ' / ' ORDER BY u.depth DESC) AS path
    FROM up u JOIN entities p ON p.id = u.id GROUP BY u.seed
  )`;

/** What both listings say of an entity, `l` being the listed row and `located` its place. */
const LISTED_COLUMNS = `l.id, l.name, l.asset_id::text AS "assetId", l.quantity,
    coalesce(located.location, '[]'::json) AS location, coalesce(located.path, '') AS path`;

/**
 * The entities of group `$1` that are not archived and whose quantity is at or below their
 * minimum, with where they are; by location path, then name.
 */
export const LOW_STOCK = `WITH RECURSIVE listed AS (
    SELECT e.id, e.parent_id, e.name, e.asset_id, e.quantity, s.min_quantity, s.reorder_quantity
    FROM entity_stock s JOIN entities e ON e.id = s.entity_id AND e.group_id = $1
    WHERE s.group_id = $1 AND s.min_quantity IS NOT NULL AND NOT e.archived
      AND e.quantity <= s.min_quantity
  ),
  ${located('$1')}
  SELECT ${LISTED_COLUMNS}, l.min_quantity AS "minQuantity", l.reorder_quantity AS "reorderQuantity"
  FROM listed l LEFT JOIN located ON located.seed = l.id
  ORDER BY lower(coalesce(located.path, '') COLLATE "C"), coalesce(located.path, '') COLLATE "C",
    ${nameOrder('l')}`;

/**
 * The entities of group `$1` that are not archived and expire on or before day `$2`, with how
 * many days they have left from day `$3` (negative: expired); by expiry day, then name.
 */
export const EXPIRING = `WITH RECURSIVE listed AS (
    SELECT e.id, e.parent_id, e.name, e.asset_id, e.quantity, s.expires_on
    FROM entity_stock s JOIN entities e ON e.id = s.entity_id AND e.group_id = $1
    WHERE s.group_id = $1 AND s.expires_on <= $2::date AND NOT e.archived
  ),
  ${located('$1')}
  SELECT ${LISTED_COLUMNS}, to_char(l.expires_on, 'YYYY-MM-DD') AS "expiresOn",
    (l.expires_on - $3::date) AS "daysLeft"
  FROM listed l LEFT JOIN located ON located.seed = l.id
  ORDER BY l.expires_on, ${nameOrder('l')}`;

/** How many entities of group `$1` `LOW_STOCK` lists. */
export const LOW_STOCK_COUNT = `SELECT count(*)::int AS total
  FROM entity_stock s JOIN entities e ON e.id = s.entity_id AND e.group_id = $1
  WHERE s.group_id = $1 AND s.min_quantity IS NOT NULL AND NOT e.archived
    AND e.quantity <= s.min_quantity`;

/** A page of `LOW_STOCK`: `$2` rows after the first `$3`. */
export const LOW_STOCK_PAGE = `${LOW_STOCK}
  LIMIT $2 OFFSET $3`;

/** How many entities of group `$1` `EXPIRING` lists for day `$2`. */
export const EXPIRING_COUNT = `SELECT count(*)::int AS total
  FROM entity_stock s JOIN entities e ON e.id = s.entity_id AND e.group_id = $1
  WHERE s.group_id = $1 AND s.expires_on <= $2::date AND NOT e.archived`;

/** A page of `EXPIRING`: `$4` rows after the first `$5`. */
export const EXPIRING_PAGE = `${EXPIRING}
  LIMIT $4 OFFSET $5`;

/** How many entities of group `$1` that are not archived have stock settings. */
export const STOCKED_COUNT = `SELECT count(*)::int AS total
  FROM entity_stock s JOIN entities e ON e.id = s.entity_id AND e.group_id = $1
  WHERE s.group_id = $1 AND NOT e.archived`;

/**
 * A page of the entities of group `$1` that are not archived and have stock settings, with their
 * settings, whether they are low and where they are; by name, `$2` rows after the first `$3`.
 */
export const STOCKED_PAGE = `WITH RECURSIVE listed AS (
    SELECT e.id, e.parent_id, e.name, e.asset_id, e.quantity, s.min_quantity, s.reorder_quantity,
      s.expires_on
    FROM entity_stock s JOIN entities e ON e.id = s.entity_id AND e.group_id = $1
    WHERE s.group_id = $1 AND NOT e.archived
    ORDER BY ${nameOrder('e')}
    LIMIT $2 OFFSET $3
  ),
  ${located('$1')}
  SELECT ${LISTED_COLUMNS}, l.min_quantity AS "minQuantity", l.reorder_quantity AS "reorderQuantity",
    to_char(l.expires_on, 'YYYY-MM-DD') AS "expiresOn",
    (l.min_quantity IS NOT NULL AND l.quantity <= l.min_quantity) AS low
  FROM listed l LEFT JOIN located ON located.seed = l.id
  ORDER BY ${nameOrder('l')}`;

/**
 * Records an adjustment of entity `$2` of group `$1` from quantity `$3` to `$4` for reason `$5`;
 * the row as the API shows it.
 */
export const INSERT_ADJUSTMENT = `INSERT INTO stock_adjustments
    (group_id, entity_id, quantity_before, quantity_after, reason)
  VALUES ($1, $2, $3, $4, $5)
  RETURNING id, entity_id AS "entityId", quantity_before AS "quantityBefore",
    quantity_after AS "quantityAfter", reason, created_at AS "createdAt"`;

/**
 * Entities of every group, not archived, that expire on or before day `$1` and whose expiry day
 * has not been announced: what the daily reminder lists. By group, expiry day, then name.
 */
export const UNANNOUNCED_EXPIRING = `SELECT s.group_id AS "groupId", e.id, e.name,
    to_char(s.expires_on, 'YYYY-MM-DD') AS "expiresOn"
  FROM entity_stock s JOIN entities e ON e.id = s.entity_id
  WHERE s.expires_on <= $1::date AND s.expiry_announced_on IS DISTINCT FROM s.expires_on
    AND NOT e.archived
  ORDER BY s.group_id, s.expires_on, ${nameOrder('e')}`;

/** Records the expiry days `$2` of entities `$1` (pairwise) as announced, if still theirs. */
export const MARK_EXPIRY_ANNOUNCED = `UPDATE entity_stock s SET expiry_announced_on = a.expires_on
  FROM unnest($1::uuid[], $2::date[]) AS a(entity_id, expires_on)
  WHERE s.entity_id = a.entity_id AND s.expires_on = a.expires_on`;

/**
 * Claims up to `$1` low-stock alerts (rows other drains hold are skipped) and deletes them, with
 * what the message says of each entity now.
 */
export const CLAIM_ALERTS = `WITH claimed AS (
    DELETE FROM stock_alerts WHERE id IN (
      SELECT id FROM stock_alerts ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED
    )
    RETURNING id, entity_id, group_id
  )
  SELECT c.group_id AS "groupId", g.name AS "groupName", e.id, e.name, e.quantity,
    s.min_quantity AS "minQuantity", s.reorder_quantity AS "reorderQuantity"
  FROM claimed c JOIN entities e ON e.id = c.entity_id JOIN groups g ON g.id = c.group_id
  LEFT JOIN entity_stock s ON s.entity_id = c.entity_id
  ORDER BY c.group_id, ${nameOrder('e')}, c.id`;

/**
 * Brings every stock row's low flag up to date where it disagrees with its entity (a change
 * raced with another): the same check the triggers run, alerting crossings into low.
 */
export const RECONCILE_LOW = `SELECT entity_stock_check(array_agg(s.entity_id))
  FROM entity_stock s JOIN entities e ON e.id = s.entity_id
  WHERE s.low_alerted <> (NOT e.archived AND s.min_quantity IS NOT NULL AND e.quantity <= s.min_quantity)
  HAVING count(*) > 0`;
