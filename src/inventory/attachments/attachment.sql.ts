/** Serialises writes to entity `$1`'s attachments until the unit of work ends. */
export const LOCK_ENTITY_ATTACHMENTS = 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))';

/** Clears the primary flag of entity `$1`'s photos, but that of attachment `$2` (when given). */
export const CLEAR_PRIMARY = `UPDATE attachments SET "primary" = false, updated_at = now()
  WHERE entity_id = $1 AND "primary" AND ($2::uuid IS NULL OR id <> $2::uuid)`;

/**
 * Marks one photo primary (the oldest, not a link of MIME type `$2`) on each entity of group `$1`
 * with photos but none primary; returns the ids marked.
 */
export const SET_PRIMARY_PHOTOS = `UPDATE attachments SET "primary" = true, updated_at = now()
  WHERE id IN (
    SELECT DISTINCT ON (a.entity_id) a.id FROM attachments a
    JOIN entities e ON e.id = a.entity_id
    WHERE e.group_id = $1 AND a.type = 'photo' AND a.mime_type <> $2
      AND NOT EXISTS (
        SELECT 1 FROM attachments p
        WHERE p.entity_id = a.entity_id AND p.type = 'photo' AND p."primary"
      )
    ORDER BY a.entity_id, a.created_at, a.id
  )
  RETURNING id`;

/** Group `$1`'s photos of the MIME types `$2` that have no thumbnail, oldest first. */
export const PHOTOS_WITHOUT_THUMBNAIL = `SELECT a.id FROM attachments a
  JOIN entities e ON e.id = a.entity_id
  WHERE e.group_id = $1 AND a.type = 'photo' AND a.thumbnail_id IS NULL
    AND a.mime_type = ANY($2::text[])
  ORDER BY a.created_at, a.id`;

/**
 * Copies entity `$1`'s attachments but thumbnails to entity `$2`: the same files, without
 * thumbnails of their own.
 */
export const COPY_ALL = `INSERT INTO attachments
    (entity_id, type, "primary", title, path, mime_type, thumbnail_id)
  SELECT $2, type, "primary", title, path, mime_type, NULL FROM attachments
  WHERE entity_id = $1 AND type <> 'thumbnail'`;
