import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { PasswordResetRecord } from './password-reset.record.js';
import {
  CONSUME_RESET,
  DELETE_EXPIRED_RESETS,
  DELETE_UNUSED_OF_USER,
} from './password-reset.sql.js';

/** The only code that reads or writes the `password_resets` table. */
@Injectable()
export class PasswordResetRepository {
  constructor(private readonly db: Database) {}

  async insert(userId: string, tokenHash: Buffer, expiresAt: Date): Promise<void> {
    await this.db.repository(PasswordResetRecord).insert({ userId, tokenHash, expiresAt });
  }

  /** Marks the unused, unexpired link of this token hash used; its user, or null. */
  async consume(tokenHash: Buffer): Promise<string | null> {
    const [row] = await this.db.query<{ user_id: string }>(CONSUME_RESET, [tokenHash]);
    return row?.user_id ?? null;
  }

  /** Deletes the user's links not used yet. */
  async deleteUnusedOfUser(userId: string): Promise<void> {
    await this.db.query(DELETE_UNUSED_OF_USER, [userId]);
  }

  /** Deletes the expired links; returns how many went. */
  async deleteExpired(): Promise<number> {
    return this.db.execute(DELETE_EXPIRED_RESETS);
  }
}
