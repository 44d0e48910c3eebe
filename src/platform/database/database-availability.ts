import { Logger } from '@nestjs/common';
import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';

/** Seconds a client is asked to wait (`Retry-After`) while the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection that cannot be made or was cut. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or cannot take the connection: admin shutdown,
 * crash shutdown, cannot connect now (starting up, shutting down, in recovery).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03']);

/** Messages of pg and pg-pool for a connection that could not be made or was lost. */
const UNREACHABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'connection terminated',
  'client has encountered a connection error and is not queryable',
  'client was closed and is not queryable',
];

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * The error and what it carries from the database driver: TypeORM's `driverError` and an
 * AggregateError's list (a connect to every address of a host). Not `cause`: other clients
 * (fetch, for one) wrap their own socket errors there, and those are not the database's.
 */
function* chain(error: unknown, depth = 0): Generator<object> {
  if (typeof error !== 'object' || error === null || depth > 5) return;
  // The AWS SDK's socket errors (S3 storage) carry `$metadata`; they are not the database's either.
  if ('$metadata' in error) return;
  yield error;
  const wrapper = error as { driverError?: unknown; errors?: unknown };
  yield* chain(wrapper.driverError, depth + 1);
  if (Array.isArray(wrapper.errors))
    for (const inner of wrapper.errors) yield* chain(inner, depth + 1);
}

/**
 * Whether an error means the database cannot be reached or will not take work right now
 * (as opposed to a problem with this one statement): connection refused or cut, the pool's
 * connect timeout, SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, cannot
 * connect now) and class 53 (insufficient resources, such as too many connections).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of chain(error)) {
    const { code, message } = link as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (UNREACHABLE_CODES.has(code) || UNAVAILABLE_STATES.has(code)) return true;
      if (SQLSTATE.test(code)) {
        if (code.startsWith('08') || code.startsWith('53')) return true;
        // Any other error the server reported is about the statement; its message may quote input.
        continue;
      }
    }
    if (typeof message === 'string') {
      const lower = message.toLowerCase();
      if (UNREACHABLE_MESSAGES.some((text) => lower.includes(text))) return true;
    }
  }
  return false;
}

interface OutageLogger {
  warn(message: string): void;
  log(message: string): void;
}

/**
 * Remembers whether the database is known to be unavailable, so that an outage is logged once
 * when it is first seen and once when the database answers again, however many requests fail
 * in between.
 */
export class DatabaseOutage {
  private since?: number;

  constructor(private readonly logger: OutageLogger = new Logger('Database')) {}

  get down(): boolean {
    return this.since !== undefined;
  }

  /**
   * Whether `error` comes from the database being unavailable: by its kind, or TypeORM's "query
   * runner already released" (from the runner, or from a manager bound to it). TypeORM releases a
   * transaction's runner when its connection is cut, so the transaction's next statement, or its
   * rollback, fails with that instead; and it
   * may do so before the cut connection's own `error` event has told that an outage began.
   * Trove never releases a runner itself (units of work are opened and closed by the
   * transactional plugin), so a released runner means a lost connection.
   */
  explains(error: unknown): boolean {
    return (
      isDatabaseUnavailable(error) ||
      error instanceof QueryRunnerAlreadyReleasedError ||
      error instanceof QueryRunnerProviderAlreadyReleasedError
    );
  }

  /** A request or probe failed because the database is unavailable. */
  failed(error: unknown): void {
    if (this.since !== undefined) return;
    this.since = Date.now();
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(`database unavailable (${reason}); answering 503 until it is reachable again`);
  }

  /** The database answered (a new connection was made, or a probe passed). */
  answered(): void {
    if (this.since === undefined) return;
    const seconds = ((Date.now() - this.since) / 1000).toFixed(1);
    this.since = undefined;
    this.logger.log(`database reachable again after ${seconds} s`);
  }
}

/** The process's one view of its database's availability (Trove talks to one database). */
export const databaseOutage = new DatabaseOutage();

/**
 * Called by the pool for each new connection (pg-pool's `onConnect`): gives the client a
 * listener for its whole life, because a connection the server cuts (a killed postmaster, an
 * admin shutdown) emits `error`, and an `error` event without a listener ends the process. The
 * pool's own listener is detached while the client is lent out, and TypeORM attaches its own
 * only some time after. A new connection also means the database answers again.
 */
export function watchPoolClient(client: ErrorEmitter, outage = databaseOutage): void {
  client.on('error', (error: unknown) => {
    if (isDatabaseUnavailable(error)) outage.failed(error);
    else poolLogger.warn(`database connection error: ${String(error)}`);
  });
  outage.answered();
}

interface ErrorEmitter {
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

const poolLogger = new Logger('Database');
