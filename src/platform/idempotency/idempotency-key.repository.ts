import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { FIND_KEY, PURGE_EXPIRED_KEYS, STORE_KEY, TRY_LOCK_KEY } from './idempotency.sql.js';

/** A stored key: the request it was first used for and, once answered, that request's answer. */
export interface IdempotencyKeyRow {
  fingerprint: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

/** A response to keep for a key. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** The only code that reads or writes the `idempotency_keys` table. */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(private readonly db: Database) {}

  /** Runs `work` in one transaction: the key's lock, the change and its stored response. */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Takes the key until the open transaction ends; false when another request holds it. */
  async tryLock(userId: string, key: string): Promise<boolean> {
    if (!this.db.inTransaction) throw new Error('locking an idempotency key needs a unit of work');
    const [row] = await this.db.query<{ locked: boolean }>(TRY_LOCK_KEY, [userId, key]);
    return row?.locked === true;
  }

  /** The key's live row: not expired, and not an abandoned reservation. */
  async find(userId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
    const [row] = await this.db.query<IdempotencyKeyRow>(FIND_KEY, [userId, key]);
    return row;
  }

  async store(
    userId: string,
    key: string,
    fingerprint: string,
    response: StoredResponse,
  ): Promise<void> {
    await this.db.query(STORE_KEY, [
      userId,
      key,
      fingerprint,
      response.status,
      JSON.stringify(response.headers),
      response.body,
    ]);
  }

  /** Deletes keys older than 24 hours; how many went. */
  async purgeExpired(): Promise<number> {
    const result = await this.db.manager.query<[unknown, number]>(PURGE_EXPIRED_KEYS);
    return result[1];
  }
}
