import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** A job's row in `pgboss.job`, the columns the tests look at. */
export interface JobRow {
  id: string;
  name: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  data: Record<string, unknown>;
  retry_count: number;
  retry_limit: number;
  retry_delay: number;
  retry_backoff: boolean;
  started_on: Date | null;
  completed_on: Date | null;
  /** Seconds from the start of the last attempt to the time the job may run again. */
  wait_seconds: number | null;
  output: { message?: string; [key: string]: unknown } | null;
}

/** Runs SQL on a database by URL. */
export async function queryOn<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The queue's jobs named `name`, oldest first. */
export const jobRows = (database: TestDatabase, name: string): Promise<JobRow[]> =>
  queryOn<JobRow>(
    database.url,
    `SELECT id, name, state, data, retry_count, retry_limit, retry_delay, retry_backoff,
            started_on, completed_on, output,
            EXTRACT(EPOCH FROM start_after - started_on)::float AS wait_seconds
       FROM pgboss.job WHERE name = $1 ORDER BY created_on, id`,
    [name],
  );

/**
 * Polls `read` every 100 ms until `done` holds for what it returns (at most `timeoutMs`: jobs
 * run in the background on an instance polling every second, on a loaded machine), and
 * returns that value.
 */
export async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) {
      throw new Error(`${what}: not reached in ${timeoutMs} ms; last ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/** One database and one data directory that several instances of Trove share. */
export interface SharedPlace {
  database: TestDatabase;
  dataDir: string;
  remove(): Promise<void>;
}

export async function createSharedPlace(): Promise<SharedPlace> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-jobs-'));
  return {
    database,
    dataDir,
    remove: async () => {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
