import { isoTimestamp, restoredId } from './backup.sql.js';

/** Tags of group `$1` after id `$2`, at most `$3` (collection backup). */
export const BACKUP_TAGS = `SELECT t.id, ${isoTimestamp('t.created_at')} AS created_at,
    ${isoTimestamp('t.updated_at')} AS updated_at, t.parent_id, t.name, t.description, t.color,
    t.icon
  FROM tags t WHERE t.group_id = $1 AND t.id > $2 ORDER BY t.id LIMIT $3`;

/** Restores tags (`$1` rows, `$2` id key, `$3` group) without parents (RESTORE_TAG_PARENTS). */
export const RESTORE_TAGS = `INSERT INTO tags
    (id, created_at, updated_at, group_id, name, description, color, icon)
  SELECT ${restoredId('r.id')}, COALESCE(r.created_at, now()), COALESCE(r.updated_at, now()), $3,
    r.name, COALESCE(r.description, ''), COALESCE(r.color, ''), COALESCE(r.icon, '')
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, created_at timestamptz, updated_at timestamptz,
    name text, description text, color text, icon text)`;

/** Sets restored tags' parents (`$1` rows with id and parent_id). */
export const RESTORE_TAG_PARENTS = `UPDATE tags t SET parent_id = ${restoredId('r.parent_id')}
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, parent_id text)
  WHERE t.id = ${restoredId('r.id')} AND t.group_id = $3 AND r.parent_id IS NOT NULL`;

/** Number of tags of group `$1`. */
export const COUNT_TAGS = 'SELECT count(*)::int AS n FROM tags WHERE group_id = $1';
