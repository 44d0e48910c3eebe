/** Copies the maintenance entries of entity `$1` to entity `$2`. */
export const COPY_ENTRIES = `INSERT INTO maintenance_entries
    (entity_id, name, description, date, scheduled_date, cost)
  SELECT $2, name, description, date, scheduled_date, cost
  FROM maintenance_entries WHERE entity_id = $1 ORDER BY created_at, id`;

/**
 * Entries scheduled on day `$1` with no completion date, across all groups, with their entity's
 * group and name: what the daily maintenance reminder lists. By group, then entity and entry name.
 */
export const DUE_ENTRIES = `SELECT e.group_id AS "groupId", e.name AS "entityName", m.name AS "entryName"
  FROM maintenance_entries m
  JOIN entities e ON e.id = m.entity_id
  WHERE m.scheduled_date = $1 AND m.date IS NULL
  ORDER BY e.group_id, lower(e.name COLLATE "C"), e.id, lower(m.name COLLATE "C"), m.id`;

/** Deletes the maintenance entries of every entity of group `$1`; how many it deleted. */
export const DELETE_ALL_OF_GROUP = `WITH deleted AS (
    DELETE FROM maintenance_entries m USING entities e
    WHERE e.id = m.entity_id AND e.group_id = $1
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM deleted`;
