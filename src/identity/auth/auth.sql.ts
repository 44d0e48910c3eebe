/**
 * Counts a failed sign-in for key `$1` with allowance `$2`, window `$3` ms, base back-off `$4`
 * ms and longest back-off `$5` ms. A gap longer than the window starts the count again; SET
 * expressions see the old row.
 */
const STALE = `login_attempts.updated_at < now() - make_interval(secs => $3 / 1000.0)`;
const FAILURES = `CASE WHEN ${STALE} THEN 1 ELSE login_attempts.failures + 1 END`;
export const RECORD_FAILURE = `INSERT INTO login_attempts
    (key, failures, window_started_at, locked_until, updated_at)
  VALUES ($1, 1, now(),
          CASE WHEN $2 <= 1 THEN now() + make_interval(secs => $4 / 1000.0) END, now())
  ON CONFLICT (key) DO UPDATE SET
    failures = ${FAILURES},
    window_started_at = CASE WHEN ${STALE} THEN now() ELSE login_attempts.window_started_at END,
    locked_until = CASE WHEN ${FAILURES} >= $2
      THEN now() + make_interval(secs => least($4 * power(2, ${FAILURES} - $2), $5) / 1000.0)
      ELSE login_attempts.locked_until END,
    updated_at = now()`;

/** The longest wait, in milliseconds, of the keys `$1` that are locked now. */
export const LONGEST_WAIT = `SELECT max(EXTRACT(EPOCH FROM (locked_until - now())) * 1000)::bigint
    AS wait_ms
  FROM login_attempts WHERE key = ANY($1) AND locked_until > now()`;

/** Clears the keys `$1`, and any count idle for a day. */
export const CLEAR_ATTEMPTS = `DELETE FROM login_attempts
  WHERE key = ANY($1) OR updated_at < now() - interval '1 day'`;

export const DELETE_STALE_ATTEMPTS = `DELETE FROM login_attempts
  WHERE updated_at < now() - interval '1 day'`;

export const DELETE_EXPIRED_TOKENS = `DELETE FROM auth_tokens WHERE expires_at <= now()`;

/**
 * Deletes the tokens created in provider session `$1` of users signing in with issuer `$2`
 * (and subject `$3` unless null), answering their users.
 */
export const DELETE_PROVIDER_SESSION_TOKENS = `DELETE FROM auth_tokens t USING users u
  WHERE u.id = t.user_id AND t.provider_session_id = $1 AND u.oidc_issuer = $2
    AND ($3::text IS NULL OR u.oidc_subject = $3)
  RETURNING t.user_id`;

/** Deletes every single sign-on token of the user of issuer `$1` and subject `$2`. */
export const DELETE_SINGLE_SIGN_ON_TOKENS = `DELETE FROM auth_tokens t USING users u
  WHERE u.id = t.user_id AND t.single_sign_on AND u.oidc_issuer = $1 AND u.oidc_subject = $2
  RETURNING t.user_id`;

/**
 * Deletes the session `$1` and the attachment token issued with it (which its deletion would
 * take along anyway), answering both rows' ids.
 */
export const DELETE_SESSION_PAIR = `DELETE FROM auth_tokens WHERE id = $1 OR session_id = $1
  RETURNING id`;

/**
 * Deletes every session and attachment token of user `$1` except the sessions `$2` and the
 * attachment tokens issued with them.
 */
export const DELETE_USER_TOKENS = `DELETE FROM auth_tokens
  WHERE user_id = $1 AND id <> ALL($2::uuid[])
    AND (session_id IS NULL OR session_id <> ALL($2::uuid[]))`;

/**
 * The unexpired sessions of user `$1` (not the attachment tokens issued with them), newest
 * first.
 */
export const USER_SESSIONS = `SELECT t.id, t.created_at, t.expires_at, t.single_sign_on
  FROM auth_tokens t
  WHERE t.user_id = $1 AND t.session_id IS NULL AND t.expires_at > now()
    AND EXISTS (SELECT 1 FROM auth_roles r WHERE r.token_id = t.id AND r.role = 'user')
  ORDER BY t.created_at DESC, t.id`;

/**
 * Deletes the unexpired session `$1` of user `$2` and the attachment token issued with it,
 * answering both rows' ids; nothing when `$1` is not a session of that user.
 */
export const DELETE_OWN_SESSION_PAIR = `DELETE FROM auth_tokens
  WHERE (id = $1 OR session_id = $1) AND EXISTS (
    SELECT 1 FROM auth_tokens s
    WHERE s.id = $1 AND s.user_id = $2 AND s.session_id IS NULL AND s.expires_at > now()
      AND EXISTS (SELECT 1 FROM auth_roles r WHERE r.token_id = s.id AND r.role = 'user'))
  RETURNING id`;
