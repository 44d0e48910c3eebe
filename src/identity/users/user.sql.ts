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

/**
 * A page of every user, by name (then id): those whose name or e-mail address matches the ILIKE
 * pattern `$1` (every user when null), `$2` rows from row `$3`, each with the count of them all.
 */
export const USER_PAGE = `SELECT id, name, email, is_superuser AS "isSuperuser",
    disabled_at IS NOT NULL AS disabled, created_at AS "createdAt", count(*) OVER ()::int AS total
  FROM users u
  WHERE $1::text IS NULL OR u.name ILIKE $1 OR u.email ILIKE $1
  ORDER BY lower(u.name COLLATE "C"), u.name COLLATE "C", u.id
  LIMIT $2 OFFSET $3`;

/** How many users match the ILIKE pattern `$1` (every user when null). */
export const USER_COUNT = `SELECT count(*)::int AS count FROM users u
  WHERE $1::text IS NULL OR u.name ILIKE $1 OR u.email ILIKE $1`;
