import { HttpStatus } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { DATABASE_RETRY_AFTER_SECONDS, databaseOutage } from './database-availability.js';

/** What PostgreSQL tells about a failed statement, whichever client path issued it. */
export interface PostgresError {
  /** The SQLSTATE, five characters (`23505`). */
  code: string;
  /** The primary message; shown to the client only for Trove's own class `TR`. */
  message?: string;
  constraint?: string;
  column?: string;
  detail?: string;
}

/** A database error as the client sees it: a status and a message without internals. */
export interface MappedDatabaseError {
  status: number;
  error: string;
  /** For a 503: when to try again, in seconds. */
  retryAfterSeconds?: number;
}

/**
 * SQLSTATE classes are two digits or upper-case letters (`22`, `23`, `57`, `F0`, `HV`, `P0`,
 * `XX`, and Trove's own `TR`), then three more. Node's system error codes (`EPIPE`,
 * `ECONNRESET`) start with `E`, which no class does, so they never pass for PostgreSQL errors.
 */
const SQLSTATE = /^(?:[0-9][0-9A-Z]|F0|HV|P0|XX|TR)[0-9A-Z]{3}$/;

/**
 * Trove's own SQLSTATE for a database function refusing a change the group's data does not
 * allow (`RAISE EXCEPTION USING ERRCODE = 'TR409', MESSAGE = ...`): a 409 whose message is the
 * function's own, written for the client.
 */
export const REFUSED_BY_DATA = 'TR409';

/**
 * The PostgreSQL error behind `error`: TypeORM's QueryFailedError carries it as `driverError`,
 * statements run on the `pg` pool directly (prepared statements) throw pg's DatabaseError, and
 * anything else with a SQLSTATE `code` counts too. Undefined for anything that is not one.
 */
export function postgresErrorOf(error: unknown): PostgresError | undefined {
  const candidate: unknown = error instanceof QueryFailedError ? error.driverError : error;
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const code = (candidate as { code?: unknown }).code;
  if (typeof code !== 'string' || !SQLSTATE.test(code)) return undefined;
  return candidate as PostgresError;
}

/**
 * The one mapping of database errors to HTTP answers, used by the global error filter for every
 * error of every path to PostgreSQL. Undefined leaves the error unmapped (a logged 500).
 *
 * - The database out of reach (refused or cut connections, no pooled connection within the
 *   pool's wait, an administrator shutdown, too many connections): 503 with `Retry-After`.
 * - 23505 unique and 23503 foreign-key violations: 409 (services check referenced ids first,
 *   so what reaches here is a conflict with concurrent writes or stored data).
 * - 40P01 deadlock and 40001 serialization failure: 409. PostgreSQL aborted this change, and
 *   only this one, because it crossed a concurrent change of the same records (say, tagging an
 *   entity with a tag being deleted); nothing of it was kept, and it may simply be sent again.
 * - 23514 check, 23502 not-null, 22001 string too long, 22003 number out of range: 422.
 * - TR409, raised by Trove's own functions: 409 with the function's message.
 * - Any other data exception (class 22: invalid text for a type, bad dates, division by zero,
 *   characters the encoding refuses...): 400, as a backstop behind validation.
 */
export function mapDatabaseError(error: unknown): MappedDatabaseError | undefined {
  if (databaseOutage.explains(error)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      error: 'database unavailable',
      retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    };
  }
  const postgres = postgresErrorOf(error);
  if (!postgres) return undefined;
  const constraint = postgres.constraint ? ` (${postgres.constraint})` : '';
  switch (postgres.code) {
    case REFUSED_BY_DATA:
      return { status: HttpStatus.CONFLICT, error: postgres.message ?? 'the change was refused' };
    case '23505':
      return {
        status: HttpStatus.CONFLICT,
        error: `a record with the same unique values already exists${constraint}`,
      };
    case '23503':
      return {
        status: HttpStatus.CONFLICT,
        error: `the record is referenced by, or refers to, a missing record${constraint}`,
      };
    case '40P01':
    case '40001':
      return {
        status: HttpStatus.CONFLICT,
        error:
          'the change crossed a concurrent change of the same records and was not made; send it again',
      };
    case '23514':
    case '23502':
    case '22001':
    case '22003':
      return {
        status: HttpStatus.UNPROCESSABLE_ENTITY,
        error: `a value is out of range or not allowed${constraint}`,
      };
    case '22P02':
    case '22007':
    case '22008':
      return { status: HttpStatus.BAD_REQUEST, error: 'a value has an invalid format' };
  }
  if (postgres.code.startsWith('22')) {
    return { status: HttpStatus.BAD_REQUEST, error: 'a value is invalid' };
  }
  return undefined;
}
