import { Injectable } from '@nestjs/common';
import { Database } from '../../database/database.js';
import {
  COMPLETE_KEY,
  FIND_KEY,
  PURGE_EXPIRED_KEYS,
  RELEASE_KEY,
  RESERVE_KEY,
} from './idempotency.sql.js';

/** A stored key: the request it was first used for and, once completed, that request's answer. */
export interface IdempotencyKeyRow {
  fingerprint: string;
  response_status: number | null;
  response_body: string | null;
}

interface HeldKey {
  userId: string;
  key: string;
  id: string;
}

/** The only code that reads or writes the `idempotency_keys` table. */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(private readonly db: Database) {}

  /** Reserves the key for a request (taking over an expired or abandoned row); false if held. */
  async reserve(userId: string, key: string, fingerprint: string, id: string): Promise<boolean> {
    const rows = await this.db.query(RESERVE_KEY, [userId, key, fingerprint, id]);
    return rows.length > 0;
  }

  async find(userId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
    const [row] = await this.db.query<IdempotencyKeyRow>(FIND_KEY, [userId, key]);
    return row;
  }

  async complete(held: HeldKey, status: number, body: string | null): Promise<void> {
    await this.db.query(COMPLETE_KEY, [held.userId, held.key, held.id, status, body]);
  }

  async release(held: HeldKey): Promise<void> {
    await this.db.query(RELEASE_KEY, [held.userId, held.key, held.id]);
  }

  /** Deletes keys older than 24 hours; how many went. */
  async purgeExpired(): Promise<number> {
    const result = await this.db.manager.query<[unknown, number]>(PURGE_EXPIRED_KEYS);
    return result[1];
  }
}
