/**
 * Uses up the reset link whose token hash is `$1` if it is unused and unexpired, returning its
 * user; the row is updated in place, so of two concurrent uses only one gets the user.
 */
export const CONSUME_RESET = `UPDATE password_resets SET used_at = now()
  WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
  RETURNING user_id`;

/** Deletes the unused links of user `$1` (all but a fresh one, or the one just used). */
export const DELETE_UNUSED_OF_USER = `DELETE FROM password_resets
  WHERE user_id = $1 AND used_at IS NULL`;

/** Deletes the links that expired, used or not. */
export const DELETE_EXPIRED_RESETS = `DELETE FROM password_resets WHERE expires_at <= now()`;
