/**
 * A page of every group, by name (then id): those whose name matches the ILIKE pattern `$1`
 * (every group when null), `$2` rows from row `$3`, each with its member count and the count of
 * them all.
 */
export const GROUP_PAGE = `SELECT g.id, g.name, g.created_at AS "createdAt",
    (SELECT count(*)::int FROM group_memberships m WHERE m.group_id = g.id) AS members,
    count(*) OVER ()::int AS total
  FROM groups g
  WHERE $1::text IS NULL OR g.name ILIKE $1
  ORDER BY lower(g.name COLLATE "C"), g.name COLLATE "C", g.id
  LIMIT $2 OFFSET $3`;

/** How many groups match the ILIKE pattern `$1` (every group when null). */
export const GROUP_COUNT = `SELECT count(*)::int AS count FROM groups g
  WHERE $1::text IS NULL OR g.name ILIKE $1`;

/** How many groups each of the users `$1` belongs to (users of none are left out). */
export const MEMBERSHIP_COUNTS = `SELECT user_id AS "userId", count(*)::int AS groups
  FROM group_memberships WHERE user_id = ANY($1::uuid[]) GROUP BY user_id`;
