import pg from 'pg';
import { QueryFailedError } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { mapDatabaseError, postgresErrorOf } from './database-errors.js';

/** pg's own error class, as a statement run on the pool (a prepared statement) throws it. */
const pgError = (code: string, constraint?: string): pg.DatabaseError =>
  Object.assign(new pg.DatabaseError('failed', 1, 'error'), { code, constraint });

/** TypeORM's wrapper around the same error. */
const queryFailed = (code: string, constraint?: string): QueryFailedError =>
  new QueryFailedError('INSERT', [], pgError(code, constraint));

describe('mapDatabaseError', () => {
  it('maps an error the same whether TypeORM or pg reports it', () => {
    for (const make of [queryFailed, pgError]) {
      expect(mapDatabaseError(make('23505', 'users_email_key'))).toEqual({
        status: 409,
        error: 'a record with the same unique values already exists (users_email_key)',
      });
      expect(mapDatabaseError(make('23503', 'entities_parent_id_fkey'))).toEqual({
        status: 409,
        error:
          'the record is referenced by, or refers to, a missing record (entities_parent_id_fkey)',
      });
    }
  });

  it('recognises any object with a SQLSTATE code', () => {
    expect(mapDatabaseError({ code: '23505' })?.status).toBe(409);
    expect(mapDatabaseError(Object.assign(new Error('x'), { code: '22012' }))?.status).toBe(400);
  });

  it('answers constraint and range violations with 422', () => {
    for (const code of ['23514', '23502', '22001', '22003']) {
      expect(mapDatabaseError(pgError(code, 'c'))).toEqual({
        status: 422,
        error: 'a value is out of range or not allowed (c)',
      });
    }
  });

  it('answers every other data exception (class 22) with 400', () => {
    for (const code of ['22P02', '22007', '22008']) {
      expect(mapDatabaseError(pgError(code))).toEqual({
        status: 400,
        error: 'a value has an invalid format',
      });
    }
    // 22021: a NUL character or bytes invalid in UTF-8; 22012: division by zero; 22P05: a
    // Unicode escape jsonb refuses.
    for (const code of ['22021', '22012', '22P05', '22000']) {
      expect(mapDatabaseError(pgError(code))).toEqual({ status: 400, error: 'a value is invalid' });
    }
  });

  it('maps a deadlock and a serialization failure to 409: the change was not made', () => {
    for (const code of ['40P01', '40001']) {
      expect(mapDatabaseError(queryFailed(code))).toEqual({
        status: 409,
        error:
          'the change crossed a concurrent change of the same records and was not made; send it again',
      });
    }
  });

  it("maps Trove's own TR409 to 409 with the function's message", () => {
    expect(mapDatabaseError(queryFailed('TR409'))).toEqual({ status: 409, error: 'failed' });
    expect(mapDatabaseError(pgError('TR409'))).toEqual({ status: 409, error: 'failed' });
  });

  it('leaves other database errors and non-database errors unmapped', () => {
    expect(mapDatabaseError(pgError('42P01'))).toBeUndefined();
    expect(mapDatabaseError(new Error('plain'))).toBeUndefined();
    expect(mapDatabaseError(Object.assign(new Error('file'), { code: 'ENOENT' }))).toBeUndefined();
    expect(mapDatabaseError({ code: 23505 })).toBeUndefined();
    expect(mapDatabaseError(null)).toBeUndefined();
    expect(mapDatabaseError('23505')).toBeUndefined();
  });
});

describe('postgresErrorOf', () => {
  it('unwraps TypeORM’s driver error and accepts pg’s error as it is', () => {
    const inner = pgError('23505', 'k');
    expect(postgresErrorOf(new QueryFailedError('SELECT', [], inner))).toBe(inner);
    expect(postgresErrorOf(inner)).toBe(inner);
    expect(postgresErrorOf(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBeUndefined();
  });
});

describe('mapDatabaseError for a database out of reach', () => {
  it('answers 503 with a time to retry', () => {
    for (const error of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('timeout exceeded when trying to connect'),
      pgError('57P01'),
      queryFailed('53300'),
    ]) {
      expect(mapDatabaseError(error)).toEqual({
        status: 503,
        error: 'database unavailable',
        retryAfterSeconds: 5,
      });
    }
  });
});
