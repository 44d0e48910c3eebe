/** How long a key answers with its first response. */
export const KEY_LIFETIME = '24 hours';

/**
 * A row without a response is a reservation made by an earlier release of Trove, whose request
 * may still be running on an instance not yet upgraded; past this time it is taken to be
 * abandoned, and the key is free.
 */
export const ABANDONED_AFTER = '10 minutes';

/**
 * Takes the key for the current transaction, without waiting: true when this transaction now
 * holds it, false when another request with the key is running. Held until commit or rollback.
 * $1 user id, $2 key.
 */
export const TRY_LOCK_KEY = `
  SELECT pg_try_advisory_xact_lock(hashtextextended('idempotency-key:' || $1 || ':' || $2, 0))
    AS locked`;

/**
 * The row that holds a key, unless it expired or is an abandoned reservation (then the key is
 * free). $1 user id, $2 key.
 */
export const FIND_KEY = `
  SELECT fingerprint, response_status, response_headers, response_body
  FROM idempotency_keys
  WHERE user_id = $1 AND key = $2
    AND created_at >= now() - interval '${KEY_LIFETIME}'
    AND (response_status IS NOT NULL OR created_at >= now() - interval '${ABANDONED_AFTER}')`;

/**
 * Stores the response of a request, in the transaction of its change (taking over an expired
 * row or an abandoned reservation, which FIND_KEY did not return).
 * $1 user id, $2 key, $3 fingerprint, $4 status, $5 headers (JSON), $6 body.
 */
export const STORE_KEY = `
  INSERT INTO idempotency_keys AS k
    (user_id, key, fingerprint, response_status, response_headers, response_body)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (user_id, key) DO UPDATE
    SET fingerprint = excluded.fingerprint,
        reservation = NULL,
        response_status = excluded.response_status,
        response_headers = excluded.response_headers,
        response_body = excluded.response_body,
        created_at = now()`;

export const PURGE_EXPIRED_KEYS = `
  DELETE FROM idempotency_keys WHERE created_at < now() - interval '${KEY_LIFETIME}'`;
