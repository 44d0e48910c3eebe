import { Injectable, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../jobs/job-queue.js';
import { IdempotencyKeyRepository, type StoredResponse } from './idempotency-key.repository.js';

/** The hourly purge of expired keys, a scheduled job (once across instances). */
export const IDEMPOTENCY_PURGE_JOB = 'idempotency-keys.purge';

/** A request with an `Idempotency-Key`: whose key, and what identifies the request. */
export interface KeyedRequest {
  userId: string;
  key: string;
  fingerprint: string;
}

/** What a request with a key came to. */
export type KeyedOutcome<T> =
  | { kind: 'answered'; answer: T }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in-progress' }
  | { kind: 'mismatch' };

/**
 * The `Idempotency-Key`s of creating requests, kept in PostgreSQL so that every instance agrees.
 * A request with a key runs in one transaction that first takes the key (a transaction-scoped
 * advisory lock, so a concurrent request with the key is told at once that it is in progress),
 * then makes the change and stores its response: the response is kept exactly when the change
 * commits, and a change that rolls back leaves the key free. Expired keys are purged once an
 * hour by a scheduled job (and taken over when used again).
 */
@Injectable()
export class IdempotencyService implements OnModuleInit {
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

  /**
   * Runs `handle` once for the key: in a transaction that holds the key and stores the response
   * `respond` makes of its answer, unless the key already answered (replay), is held by a
   * running request (in progress) or was used for another request (mismatch). `handle` runs in
   * that transaction, so every unit of work it opens joins it. Its error rolls everything back.
   */
  run<T>(
    request: KeyedRequest,
    handle: () => Promise<T>,
    respond: (answer: T) => StoredResponse,
  ): Promise<KeyedOutcome<T>> {
    const { userId, key, fingerprint } = request;
    return this.keys.transaction(async (): Promise<KeyedOutcome<T>> => {
      if (!(await this.keys.tryLock(userId, key))) return { kind: 'in-progress' };
      const row = await this.keys.find(userId, key);
      if (row) {
        if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
        if (row.response_status === null) return { kind: 'in-progress' };
        return {
          kind: 'replay',
          response: {
            status: row.response_status,
            headers: row.response_headers ?? {},
            body: row.response_body,
          },
        };
      }
      const answer = await handle();
      await this.keys.store(userId, key, fingerprint, respond(answer));
      return { kind: 'answered', answer };
    });
  }

  /** Deletes keys older than 24 hours; returns how many went. */
  purge(): Promise<number> {
    return this.keys.purgeExpired();
  }
}
