/** Claims group `$1`'s reminder of day `$2`; a row back means this run is the one to send it. */
export const CLAIM_DAY = `INSERT INTO reminder_runs (group_id, day) VALUES ($1, $2)
  ON CONFLICT DO NOTHING RETURNING group_id`;

/** Gives back a claim whose reminder was not sent (nothing to say, nobody to tell). */
export const RELEASE_DAY = `DELETE FROM reminder_runs WHERE group_id = $1 AND day = $2`;

/** Which of the entities `$1` have had their warranty end days `$2` (pairwise) announced. */
export const ANNOUNCED = `SELECT a.entity_id AS id, to_char(a.warranty_expires, 'YYYY-MM-DD') AS "warrantyExpires"
  FROM warranty_announcements a
  JOIN unnest($1::uuid[], $2::date[]) AS w(entity_id, warranty_expires)
    ON w.entity_id = a.entity_id AND w.warranty_expires = a.warranty_expires`;

/** Records the warranty end days `$2` of entities `$1` (pairwise) as announced. */
export const ANNOUNCE = `INSERT INTO warranty_announcements (entity_id, warranty_expires)
  SELECT * FROM unnest($1::uuid[], $2::date[]) ON CONFLICT DO NOTHING`;

/** Announcements of warranty end days already past are of no further use. */
export const PURGE_ANNOUNCEMENTS = `DELETE FROM warranty_announcements WHERE warranty_expires < $1`;

/** Claims older than `$1` are of no further use. */
export const PURGE_RUNS = `DELETE FROM reminder_runs WHERE day < $1`;
