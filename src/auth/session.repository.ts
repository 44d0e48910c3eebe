import { Injectable } from '@nestjs/common';
import { In, Not } from 'typeorm';
import { Database } from '../database/database.js';
import type { AuthRole } from './auth-role.js';
import { AuthRoleRecord } from './auth-role.record.js';
import { AuthTokenRecord } from './auth-token.record.js';
import { DELETE_EXPIRED_TOKENS } from './auth.sql.js';

export interface StoredToken {
  id: string;
  userId: string;
  tokenHash: Buffer;
  expiresAt: Date;
  role: AuthRole;
  singleSignOn: boolean;
}

/** The only code that writes the `auth_tokens` and `auth_roles` tables. */
@Injectable()
export class SessionRepository {
  constructor(private readonly db: Database) {}

  /** Stores the tokens, each with its role, together. */
  async insert(tokens: StoredToken[]): Promise<void> {
    await this.db.transaction(async () => {
      await this.db
        .repository(AuthTokenRecord)
        .insert(tokens.map(({ role: _role, ...token }) => token));
      await this.db
        .repository(AuthRoleRecord)
        .insert(tokens.map((token) => ({ tokenId: token.id, role: token.role })));
    });
  }

  async isSingleSignOn(id: string): Promise<boolean> {
    const token = await this.db
      .repository(AuthTokenRecord)
      .findOne({ where: { id }, select: { id: true, singleSignOn: true } });
    return token?.singleSignOn ?? false;
  }

  async delete(id: string): Promise<void> {
    await this.db.repository(AuthTokenRecord).delete({ id });
  }

  /** Deletes every token of the user, except those listed. */
  async deleteAllForUser(userId: string, except: string[]): Promise<void> {
    await this.db
      .repository(AuthTokenRecord)
      .delete(except.length > 0 ? { userId, id: Not(In(except)) } : { userId });
  }

  /** Deletes the expired tokens; returns how many went. */
  async deleteExpired(): Promise<number> {
    return deletedCount(await this.db.query(DELETE_EXPIRED_TOKENS));
  }
}

/** The row count TypeORM returns for a DELETE run as a query (`[rows, count]`). */
export function deletedCount(result: unknown[]): number {
  return result[1] as number;
}
