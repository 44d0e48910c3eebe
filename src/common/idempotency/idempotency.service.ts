import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../jobs/job-queue.js';
import { IdempotencyKeyRepository } from './idempotency-key.repository.js';

/** The hourly purge of expired keys, a scheduled job (once across instances). */
export const IDEMPOTENCY_PURGE_JOB = 'idempotency-keys.purge';

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
 * request fails; expired keys are purged once an hour by a scheduled job (and taken over when
 * used again).
 */
@Injectable()
export class IdempotencyService implements OnModuleInit {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly keys: IdempotencyKeyRepository,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register({
      name: IDEMPOTENCY_PURGE_JOB,
      retryLimit: 2,
      schedule: { cron: '37 * * * *', data: {} },
      handle: async () => {
        await this.purge();
      },
    });
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
  purge(): Promise<number> {
    return this.keys.purgeExpired();
  }
}
