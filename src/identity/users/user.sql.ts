/** Stores the settings `$2` (JSON text) of user `$1`. */
export const UPDATE_SETTINGS =
  'UPDATE users SET settings = $2::jsonb, updated_at = now() WHERE id = $1';

/**
 * Points the default group of user `$1` at `$2` when it is none of the groups `$3` (or unset);
 * `$2` is the first of them, or null when there are none.
 */
export const KEEP_DEFAULT_GROUP_AMONG = `UPDATE users SET default_group_id = $2
  WHERE id = $1 AND (default_group_id IS NULL OR default_group_id <> ALL($3::uuid[]))`;

/** The id, name, e-mail and whether disabled of the users `$1`, by name (then id). */
export const SUMMARIES = `SELECT id, name, email, disabled_at IS NOT NULL AS disabled
  FROM users WHERE id = ANY($1::uuid[])
  ORDER BY name, id`;

/** Sets or clears the disabled time of user `$1` (`$2`: disable); true when it changed. */
export const SET_DISABLED = `UPDATE users
  SET disabled_at = CASE WHEN $2 THEN now() END, updated_at = now()
  WHERE id = $1 AND (disabled_at IS NOT NULL) <> $2`;
