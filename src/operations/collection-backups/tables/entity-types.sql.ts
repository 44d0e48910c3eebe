import { isoTimestamp, restoredId } from './backup.sql.js';

/** Entity types of group `$1` after id `$2`, at most `$3` (collection backup). */
export const BACKUP_ENTITY_TYPES = `SELECT t.id, ${isoTimestamp('t.created_at')} AS created_at,
    ${isoTimestamp('t.updated_at')} AS updated_at, t.name, t.description, t.icon, t.is_location,
    t.default_template_id
  FROM entity_types t WHERE t.group_id = $1 AND t.id > $2 ORDER BY t.id LIMIT $3`;

/** Restores entity types (`$1` rows, `$2` id key, `$3` group); templates exist already. */
export const RESTORE_ENTITY_TYPES = `INSERT INTO entity_types
    (id, created_at, updated_at, group_id, name, description, icon, is_location, default_template_id)
  SELECT ${restoredId('r.id')}, COALESCE(r.created_at, now()), COALESCE(r.updated_at, now()), $3,
    r.name, COALESCE(r.description, ''), COALESCE(r.icon, ''), COALESCE(r.is_location, false),
    ${restoredId('r.default_template_id')}
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, created_at timestamptz, updated_at timestamptz,
    name text, description text, icon text, is_location boolean, default_template_id text)`;

/** Number of entity types of group `$1`. */
export const COUNT_ENTITY_TYPES = 'SELECT count(*)::int AS n FROM entity_types WHERE group_id = $1';
