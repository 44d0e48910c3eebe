import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
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
    // An UPDATE run as a query answers `[rows, count]`.
    const [rows] = (await this.db.query(CONSUME_RESET, [tokenHash])) as unknown as [
      { user_id: string }[],
      number,
    ];
    return rows[0]?.user_id ?? null;
  }

  /** Deletes the user's links not used yet. */
  async deleteUnusedOfUser(userId: string): Promise<void> {
    await this.db.query(DELETE_UNUSED_OF_USER, [userId]);
  }

  /** Deletes the expired links; returns how many went. */
  async deleteExpired(): Promise<number> {
    // A DELETE run as a query answers `[rows, count]`.
    const result = await this.db.query(DELETE_EXPIRED_RESETS);
    return result[1] as number;
  }
}
