/** Copies the maintenance entries of entity `$1` to entity `$2`. */
export const COPY_ENTRIES = `INSERT INTO maintenance_entries
    (entity_id, name, description, date, scheduled_date, cost)
  SELECT $2, name, description, date, scheduled_date, cost
  FROM maintenance_entries WHERE entity_id = $1 ORDER BY created_at, id`;
