import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { CLEAR_ATTEMPTS, DELETE_STALE_ATTEMPTS, LONGEST_WAIT, RECORD_FAILURE } from './auth.sql.js';

export interface FailurePolicy {
  /** Failures allowed within the window before the key locks. */
  limit: number;
  windowMs: number;
  baseBackoffMs: number;
  maxBackoffMs: number;
}

/** The only code that reads or writes the `login_attempts` table. */
@Injectable()
export class LoginAttemptRepository {
  constructor(private readonly db: Database) {}

  /** The longest time, in milliseconds, any of the keys stays locked (0 when none is). */
  async longestWaitMs(keys: string[]): Promise<number> {
    const rows = await this.db.query<{ wait_ms: string | null }>(LONGEST_WAIT, [keys]);
    return Number(rows[0]?.wait_ms ?? 0);
  }

  async recordFailure(key: string, policy: FailurePolicy): Promise<void> {
    await this.db.query(RECORD_FAILURE, [
      key,
      policy.limit,
      policy.windowMs,
      policy.baseBackoffMs,
      policy.maxBackoffMs,
    ]);
  }

  /** Forgets the keys' failures, and any idle for a day. */
  async clear(keys: string[]): Promise<void> {
    await this.db.query(CLEAR_ATTEMPTS, [keys]);
  }

  /** Deletes the counts idle for a day; returns how many went. */
  async deleteStale(): Promise<number> {
    return this.db.execute(DELETE_STALE_ATTEMPTS);
  }
}
