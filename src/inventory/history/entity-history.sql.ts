/**
 * The columns of a history entry as the mapper reads them; an asset id changed also as the text
 * of its numbers, which JSON parsing would round above 2^53.
 */
const ENTRY_COLUMNS = `h.id, h.entity_id, h.entity_name, h.action, h.operation, h.changed_at, h.actor,
  h.changes, h.changes->'assetId'->>'before' AS asset_id_before,
  h.changes->'assetId'->>'after' AS asset_id_after`;

/** $1 group, $2 entity. */
const OF_ENTITY = `FROM entity_history h WHERE h.entity_id = $2 AND h.group_id = $1`;

/** $1 group, $2 entity, $3 limit, $4 offset: newest first. */
export const ENTITY_HISTORY_PAGE = `
  SELECT ${ENTRY_COLUMNS} ${OF_ENTITY} ORDER BY h.seq DESC LIMIT $3 OFFSET $4`;

/** $1 group, $2 entity. */
export const ENTITY_HISTORY_COUNT = `SELECT count(*)::int AS total ${OF_ENTITY}`;

/** $1 group, $2 since, $3 until (timestamps or null), $4 actor, $5 entity, $6 action (or null). */
const OF_AUDIT = `
  FROM entity_history h
  WHERE h.group_id = $1
    AND ($2::timestamptz IS NULL OR h.changed_at >= $2)
    AND ($3::timestamptz IS NULL OR h.changed_at < $3)
    AND ($4::uuid IS NULL OR h.actor_id = $4)
    AND ($5::uuid IS NULL OR h.entity_id = $5)
    AND ($6::text IS NULL OR h.action = $6)`;

/** The audit's filter ($1–$6), $7 limit, $8 offset: newest first. */
export const AUDIT_PAGE = `SELECT ${ENTRY_COLUMNS} ${OF_AUDIT} ORDER BY h.seq DESC LIMIT $7 OFFSET $8`;

/**
 * The audit's filter ($1–$6), $7 the `seq` to start below (or null for the newest), $8 limit:
 * one batch of a download, newest first, with each row's `seq` to continue from.
 */
export const AUDIT_BATCH = `
  SELECT ${ENTRY_COLUMNS}, h.seq ${OF_AUDIT} AND ($7::bigint IS NULL OR h.seq < $7)
  ORDER BY h.seq DESC LIMIT $8`;

/** The audit's filter ($1–$6). */
export const AUDIT_COUNT = `SELECT count(*)::int AS total ${OF_AUDIT}`;

/** $1 cut-off, $2 batch size: deletes one batch of changes older than the cut-off. */
export const PURGE_BATCH = `
  WITH gone AS (
    DELETE FROM entity_history WHERE id IN (
      SELECT id FROM entity_history WHERE changed_at < $1 LIMIT $2)
    RETURNING 1)
  SELECT count(*)::int AS purged FROM gone`;
