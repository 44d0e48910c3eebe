import { EventEmitter } from 'node:events';
import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';
import { describe, expect, it } from 'vitest';
import { DatabaseOutage, isDatabaseUnavailable, watchPoolClient } from './database-availability.js';

const withCode = (code: string, message = 'db'): Error =>
  Object.assign(new Error(message), { code });
const queryFailed = (driverError: Error): QueryFailedError =>
  new QueryFailedError('SELECT 1', [], driverError);

const recordingLogger = (): { lines: string[]; warn(m: string): void; log(m: string): void } => {
  const lines: string[] = [];
  return {
    lines,
    warn: (message) => lines.push(`warn: ${message}`),
    log: (message) => lines.push(`info: ${message}`),
  };
};

describe('isDatabaseUnavailable', () => {
  it('recognises an unreachable server through TypeORM, pg and the pool', () => {
    expect(
      isDatabaseUnavailable(withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error('Connection terminated due to connection timeout', { cause: new Error('x') }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')], 'connect failed')),
    ).toBe(true);
    expect(isDatabaseUnavailable(queryFailed(new Error('Connection terminated')))).toBe(true);
  });

  it('recognises SQLSTATEs of a server going away or out of resources', () => {
    for (const code of [
      '08000',
      '08003',
      '08006',
      '08P01',
      '57P01',
      '57P02',
      '57P03',
      '53000',
      '53100',
      '53300',
      '53400',
    ]) {
      expect(isDatabaseUnavailable(queryFailed(withCode(code))), code).toBe(true);
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
  });

  it('leaves errors about the statement alone, even when their text quotes such words', () => {
    for (const code of ['23505', '23503', '22P02', '42P01', '57014', '40001', '57P04']) {
      expect(isDatabaseUnavailable(queryFailed(withCode(code))), code).toBe(false);
    }
    expect(
      isDatabaseUnavailable(
        queryFailed(
          withCode('22P02', 'invalid input syntax for type uuid: "Connection terminated"'),
        ),
      ),
    ).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    // Other clients' socket errors: fetch wraps them in `cause`, the AWS SDK adds `$metadata`.
    expect(
      isDatabaseUnavailable(new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') })),
    ).toBe(false);
    expect(
      isDatabaseUnavailable(
        Object.assign(withCode('ECONNREFUSED'), { $metadata: { attempts: 3 } }),
      ),
    ).toBe(false);
    expect(isDatabaseUnavailable('Connection terminated')).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('DatabaseOutage', () => {
  it('logs an outage once when first seen and once when the database answers again', () => {
    const logger = recordingLogger();
    const outage = new DatabaseOutage(logger);
    outage.answered();
    expect(logger.lines).toEqual([]);

    outage.failed(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    outage.failed(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    outage.failed(new Error('timeout exceeded when trying to connect'));
    expect(outage.down).toBe(true);
    outage.answered();
    outage.answered();
    expect(outage.down).toBe(false);
    outage.failed(new Error('Connection terminated unexpectedly'));

    expect(logger.lines).toEqual([
      expect.stringMatching(
        /^warn: database unavailable \(connect ECONNREFUSED 127\.0\.0\.1:5432\)/,
      ),
      expect.stringMatching(/^info: database reachable again after \d+\.\d s$/),
      expect.stringMatching(/^warn: database unavailable \(Connection terminated unexpectedly\)/),
    ]);
  });

  it('counts a released query runner as a lost connection, even before the outage is known', () => {
    const outage = new DatabaseOutage(recordingLogger());
    const released = new QueryRunnerAlreadyReleasedError();
    expect(outage.explains(released)).toBe(true);
    expect(outage.explains(withCode('ECONNREFUSED'))).toBe(true);
    outage.failed(new Error('Connection terminated unexpectedly'));
    expect(outage.explains(released)).toBe(true);
    expect(outage.explains(new QueryRunnerProviderAlreadyReleasedError())).toBe(true);
    expect(outage.explains(new Error('something else'))).toBe(false);
  });

  it('gives each pool client a lasting error listener that reports the outage', () => {
    const logger = recordingLogger();
    const outage = new DatabaseOutage(logger);
    const client = new EventEmitter();
    watchPoolClient(client, outage);
    expect(() =>
      client.emit(
        'error',
        withCode('57P01', 'terminating connection due to unexpected postmaster exit'),
      ),
    ).not.toThrow();
    expect(outage.down).toBe(true);
    watchPoolClient(new EventEmitter(), outage);
    expect(outage.down).toBe(false);
  });
});
