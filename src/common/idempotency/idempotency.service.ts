import { randomUUID } from 'node:crypto';
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { IdempotencyKeyRepository } from './idempotency-key.repository.js';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** A key this request now holds; complete or release it. */
export interface Reservation {
  userId: string;
  key: string;
  id: string;
}

export type Claim =
  | { kind: 'reserved'; reservation: Reservation }
  | { kind: 'replay'; status: number; body: string | null }
  | { kind: 'in-progress' }
  | { kind: 'mismatch' };

/**
 * The `Idempotency-Key`s of creating requests, kept in PostgreSQL so that every instance agrees.
 * A key is reserved before its request runs, completed with the response, or released when the
 * request fails; expired keys are purged once an hour (and taken over when used again).
 */
@Injectable()
export class IdempotencyService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private timer?: NodeJS.Timeout;

  constructor(private readonly keys: IdempotencyKeyRepository) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Reserves the key for a request with this fingerprint, or says why it cannot run. */
  async claim(userId: string, key: string, fingerprint: string): Promise<Claim> {
    // A row released between the two statements is simply reserved on the next round.
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = randomUUID();
      if (await this.keys.reserve(userId, key, fingerprint, id)) {
        return { kind: 'reserved', reservation: { userId, key, id } };
      }
      const row = await this.keys.find(userId, key);
      if (!row) continue;
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.response_status === null) return { kind: 'in-progress' };
      return { kind: 'replay', status: row.response_status, body: row.response_body };
    }
    return { kind: 'in-progress' };
  }

  /** Stores the response; a failure leaves the reservation to expire, and is only logged. */
  async complete(reservation: Reservation, status: number, body: string | null): Promise<void> {
    try {
      await this.keys.complete(reservation, status, body);
    } catch (error) {
      this.logger.warn(`could not store the response of a request: ${(error as Error).message}`);
    }
  }

  /** Gives the key up after its request failed; a failure leaves it to be taken over later. */
  async release(reservation: Reservation): Promise<void> {
    try {
      await this.keys.release(reservation);
    } catch (error) {
      this.logger.warn(`could not release an idempotency key: ${(error as Error).message}`);
    }
  }

  /** Deletes keys older than 24 hours; returns how many went. */
  async purge(): Promise<number> {
    try {
      return await this.keys.purgeExpired();
    } catch (error) {
      this.logger.warn(`purge of idempotency keys failed: ${(error as Error).message}`);
      return 0;
    }
  }
}
