import { isoTimestamp, restoredId } from './backup.sql.js';

/**
 * Stock settings of group `$1`'s entities after entity id `$2`, at most `$3` (backup). The alert
 * bookkeeping (`low_alerted`, `expiry_announced_on`) stays behind.
 */
export const BACKUP_ENTITY_STOCK = `SELECT s.entity_id, s.min_quantity, s.reorder_quantity,
    s.expires_on, s.notes, ${isoTimestamp('s.created_at')} AS created_at,
    ${isoTimestamp('s.updated_at')} AS updated_at
  FROM entity_stock s
  WHERE s.group_id = $1 AND s.entity_id > $2 ORDER BY s.entity_id LIMIT $3`;

/**
 * Restores stock settings (`$1` rows, `$2` id key, `$3` group, checked on the entity). An entity
 * already low (the same test as the `entity_stock_check` trigger) is stored as alerted, so the
 * insert trigger finds nothing to change and writes no alert for restored data.
 */
export const RESTORE_ENTITY_STOCK = `INSERT INTO entity_stock
    (entity_id, group_id, min_quantity, reorder_quantity, expires_on, notes, low_alerted,
     created_at, updated_at)
  SELECT e.id, e.group_id, r.min_quantity, r.reorder_quantity, r.expires_on,
    COALESCE(r.notes, ''),
    COALESCE(NOT e.archived AND r.min_quantity IS NOT NULL AND e.quantity <= r.min_quantity, false),
    COALESCE(r.created_at, now()), COALESCE(r.updated_at, now())
  FROM jsonb_to_recordset($1::jsonb) AS r(entity_id text, min_quantity integer,
    reorder_quantity integer, expires_on date, notes text, created_at timestamptz,
    updated_at timestamptz)
  LEFT JOIN entities e ON e.id = ${restoredId('r.entity_id')} AND e.group_id = $3`;
