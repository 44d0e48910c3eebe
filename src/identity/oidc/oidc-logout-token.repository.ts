import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { DELETE_EXPIRED_LOGOUT_TOKENS, REMEMBER_LOGOUT_TOKEN } from './oidc-logout-token.sql.js';

/** The only code that reads or writes the `oidc_logout_tokens` table. */
@Injectable()
export class OidcLogoutTokenRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores a logout token's issuer and `jti` until `expiresAt`; false when it was stored
   * before (by any instance): the token is a replay.
   */
  async remember(issuer: string, jti: string, expiresAt: Date): Promise<boolean> {
    const rows = await this.db.query<{ jti: string }>(REMEMBER_LOGOUT_TOKEN, [
      issuer,
      jti,
      expiresAt,
    ]);
    return rows.length === 1;
  }

  /** Deletes the tokens no check would accept any more; returns how many went. */
  async deleteExpired(): Promise<number> {
    return this.db.execute(DELETE_EXPIRED_LOGOUT_TOKENS);
  }
}
