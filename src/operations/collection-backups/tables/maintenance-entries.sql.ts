import { isoTimestamp, restoredId } from './backup.sql.js';

/** Maintenance entries of group `$1`'s entities after id `$2`, at most `$3` (backup). */
export const BACKUP_MAINTENANCE_ENTRIES = `SELECT m.id, ${isoTimestamp('m.created_at')} AS created_at,
    ${isoTimestamp('m.updated_at')} AS updated_at, m.entity_id, m.name, m.description, m.date,
    m.scheduled_date, m.cost::text AS cost
  FROM maintenance_entries m JOIN entities e ON e.id = m.entity_id
  WHERE e.group_id = $1 AND m.id > $2 ORDER BY m.id LIMIT $3`;

/** Restores maintenance entries (`$1` rows, `$2` id key, `$3` group, checked on the entity). */
export const RESTORE_MAINTENANCE_ENTRIES = `INSERT INTO maintenance_entries
    (id, created_at, updated_at, entity_id, name, description, date, scheduled_date, cost)
  SELECT ${restoredId('r.id')}, COALESCE(r.created_at, now()), COALESCE(r.updated_at, now()),
    e.id, r.name, COALESCE(r.description, ''), r.date, r.scheduled_date, COALESCE(r.cost, 0)
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, created_at timestamptz, updated_at timestamptz,
    entity_id text, name text, description text, date date, scheduled_date date, cost numeric)
  LEFT JOIN entities e ON e.id = ${restoredId('r.entity_id')} AND e.group_id = $3`;
