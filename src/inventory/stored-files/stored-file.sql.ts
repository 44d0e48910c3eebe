/** Holds the lock of storage key `$1` until the unit of work ends. */
export const LOCK_KEY = 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))';

/** The paths of entity `$1`'s attachments, each once. */
/** The paths of the attachments of entities `$1`, each once. */
export const PATHS_OF_ENTITIES =
  'SELECT DISTINCT path FROM attachments WHERE entity_id = ANY($1::uuid[])';

/** The paths of the attachments of group `$1`'s entities, each once. */
export const PATHS_OF_GROUP = `SELECT DISTINCT a.path FROM attachments a
  JOIN entities e ON e.id = a.entity_id
  WHERE e.group_id = $1`;

/** A row when some attachment uses path `$1`. */
export const PATH_USED = 'SELECT 1 FROM attachments WHERE path = $1 LIMIT 1';
