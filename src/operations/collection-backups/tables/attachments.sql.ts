import { isoTimestamp, restoredId } from './backup.sql.js';

/** Attachments of group `$1`'s entities after id `$2`, at most `$3` (collection backup). */
export const BACKUP_ATTACHMENTS = `SELECT a.id, ${isoTimestamp('a.created_at')} AS created_at,
    ${isoTimestamp('a.updated_at')} AS updated_at, a.entity_id, a.type, a."primary", a.title,
    a.mime_type, a.thumbnail_id, a.path
  FROM attachments a JOIN entities e ON e.id = a.entity_id
  WHERE e.group_id = $1 AND a.id > $2 ORDER BY a.id LIMIT $3`;

/**
 * Restores attachments (`$1` rows with their new `path`, `$2` id key, `$3` group, checked on the
 * entity) without thumbnails (RESTORE_ATTACHMENT_THUMBNAILS).
 */
export const RESTORE_ATTACHMENTS = `INSERT INTO attachments
    (id, created_at, updated_at, entity_id, type, "primary", title, path, mime_type)
  SELECT ${restoredId('r.id')}, COALESCE(r.created_at, now()), COALESCE(r.updated_at, now()),
    e.id, COALESCE(r.type, 'attachment'), COALESCE(r."primary", false), COALESCE(r.title, ''),
    r.path, COALESCE(r.mime_type, '')
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, created_at timestamptz, updated_at timestamptz,
    entity_id text, type text, "primary" boolean, title text, path text, mime_type text)
  LEFT JOIN entities e ON e.id = ${restoredId('r.entity_id')} AND e.group_id = $3`;

/** Links restored attachments to their thumbnails (`$1` rows with id and thumbnail_id). */
export const RESTORE_ATTACHMENT_THUMBNAILS = `UPDATE attachments a
  SET thumbnail_id = ${restoredId('r.thumbnail_id')}
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, thumbnail_id text), entities e
  WHERE a.id = ${restoredId('r.id')} AND e.id = a.entity_id AND e.group_id = $3
    AND r.thumbnail_id IS NOT NULL`;
