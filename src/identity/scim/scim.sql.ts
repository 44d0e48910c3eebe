/**
 * The users SCIM sees: members of the shared group `$1`, with what SCIM keeps about them. The
 * caller appends a condition (see `filterToSql`) and its order and paging.
 */
export const SCIM_USERS_FROM = `FROM users u
  JOIN group_memberships gm ON gm.user_id = u.id AND gm.group_id = $1
  LEFT JOIN scim_identities s ON s.user_id = u.id`;

export const SCIM_USER_COLUMNS = `u.id, u.name, u.email, u.created_at, u.updated_at,
  u.disabled_at IS NOT NULL AS disabled, coalesce(s.user_name, u.email) AS user_name,
  s.external_id, s.given_name, s.middle_name, s.family_name`;

/**
 * Whether a member of shared group `$1` other than user `$3` (null: any) is known by the
 * user name `$2` (lower case): their SCIM userName, or their e-mail address when they have none.
 */
export const USER_NAME_TAKEN = `SELECT EXISTS (SELECT 1 ${SCIM_USERS_FROM}
  WHERE lower(coalesce(s.user_name, u.email)) = $2 AND ($3::uuid IS NULL OR u.id <> $3))
  OR EXISTS (SELECT 1 FROM scim_identities WHERE user_name_key = $2
    AND ($3::uuid IS NULL OR user_id <> $3)) AS taken`;

/** Stores (or replaces) what SCIM keeps of user `$1`. */
export const UPSERT_IDENTITY = `INSERT INTO scim_identities
    (user_id, user_name, user_name_key, external_id, given_name, middle_name, family_name)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (user_id) DO UPDATE SET
    user_name = EXCLUDED.user_name,
    user_name_key = EXCLUDED.user_name_key,
    external_id = EXCLUDED.external_id,
    given_name = EXCLUDED.given_name,
    middle_name = EXCLUDED.middle_name,
    family_name = EXCLUDED.family_name`;
