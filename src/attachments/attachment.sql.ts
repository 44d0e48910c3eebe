/**
 * Copies the attachments of entity `$1` to entity `$2`, sharing their stored files; thumbnails
 * are not copied, so the copies have none.
 */
export const COPY_ATTACHMENTS = `INSERT INTO attachments
    (entity_id, type, "primary", title, path, mime_type, thumbnail_id)
  SELECT $2, type, "primary", title, path, mime_type, NULL
  FROM attachments WHERE entity_id = $1 AND type <> 'thumbnail' ORDER BY created_at, id`;
