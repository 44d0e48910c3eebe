/** Stores logout token (`$1` issuer, `$2` jti) until `$3`; answers a row only if it is new. */
export const REMEMBER_LOGOUT_TOKEN = `INSERT INTO oidc_logout_tokens (issuer, jti, expires_at)
  VALUES ($1, $2, $3)
  ON CONFLICT (issuer, jti) DO NOTHING
  RETURNING jti`;

export const DELETE_EXPIRED_LOGOUT_TOKENS = `DELETE FROM oidc_logout_tokens
  WHERE expires_at <= now()`;
