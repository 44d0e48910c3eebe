/**
 * The caller's group for this request, joined in the same query that checks the credential:
 * the requested group (`$2`) when the user is a member of it, else the default group, else the
 * oldest membership.
 */
const TENANT_JOIN = `
  LEFT JOIN LATERAL (
    SELECT gm.group_id, gm.role FROM group_memberships gm
    WHERE gm.user_id = u.id AND ($2::uuid IS NULL OR gm.group_id = $2::uuid)
    ORDER BY (gm.group_id = u.default_group_id) DESC NULLS LAST, gm.created_at
    LIMIT 1
  ) m ON true`;

/**
 * The unexpired session or attachment token `$1` of an enabled user: its user, hash, roles,
 * expiry and tenant.
 */
export const BY_SESSION_TOKEN = `SELECT t.user_id, t.token_hash AS secret_hash, t.expires_at,
    ARRAY(SELECT r.role FROM auth_roles r WHERE r.token_id = t.id) AS roles,
    m.group_id, m.role AS group_role
  FROM auth_tokens t
  JOIN users u ON u.id = t.user_id
  ${TENANT_JOIN}
  WHERE t.id = $1 AND t.expires_at > now() AND u.disabled_at IS NULL`;

/** The unexpired API key of hash `$1` of an enabled user: its id, user, hash, expiry and tenant. */
export const BY_API_KEY_HASH = `SELECT k.id AS key_id, k.user_id, k.key_hash AS secret_hash,
    k.expires_at,
    ARRAY['user'] AS roles, m.group_id, m.role AS group_role
  FROM api_keys k
  JOIN users u ON u.id = k.user_id
  ${TENANT_JOIN}
  WHERE k.key_hash = $1 AND (k.expires_at IS NULL OR k.expires_at > now())
    AND u.disabled_at IS NULL`;
