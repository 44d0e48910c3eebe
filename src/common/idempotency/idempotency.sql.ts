/** How long a key answers with its first response. */
export const KEY_LIFETIME = '24 hours';

/**
 * A reservation whose request neither finished nor failed in this time is taken to be
 * abandoned (the process died, or the database went away before the release), so a retry may
 * take the key over.
 */
export const ABANDONED_AFTER = '10 minutes';

/**
 * Reserves a key for a request: inserts it, or takes over a row that expired or was abandoned.
 * Returns the row only when this request now holds it.
 * $1 user id, $2 key, $3 fingerprint, $4 reservation id.
 */
export const RESERVE_KEY = `
  INSERT INTO idempotency_keys AS k (user_id, key, fingerprint, reservation)
  VALUES ($1, $2, $3, $4)
  ON CONFLICT (user_id, key) DO UPDATE
    SET fingerprint = excluded.fingerprint,
        reservation = excluded.reservation,
        response_status = NULL,
        response_body = NULL,
        created_at = now()
    WHERE k.created_at < now() - interval '${KEY_LIFETIME}'
       OR (k.response_status IS NULL AND k.created_at < now() - interval '${ABANDONED_AFTER}')
  RETURNING k.reservation`;

/** The row that holds a key. $1 user id, $2 key. */
export const FIND_KEY = `
  SELECT fingerprint, response_status, response_body
  FROM idempotency_keys
  WHERE user_id = $1 AND key = $2`;

/** Stores the response of the request that holds the reservation. */
export const COMPLETE_KEY = `
  UPDATE idempotency_keys SET response_status = $4, response_body = $5
  WHERE user_id = $1 AND key = $2 AND reservation = $3`;

/** Gives a key up after its request failed, so that a retry runs again. */
export const RELEASE_KEY = `
  DELETE FROM idempotency_keys
  WHERE user_id = $1 AND key = $2 AND reservation = $3 AND response_status IS NULL`;

export const PURGE_EXPIRED_KEYS = `
  DELETE FROM idempotency_keys WHERE created_at < now() - interval '${KEY_LIFETIME}'`;
