import type pg from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';

describe('a pool connection the server cuts while it is lent out', () => {
  const app = useTestApp();
  beforeAll(async () => {});

  it('does not end the process, and the pool and the app go on serving', async () => {
    const dataSource = app.trove.app.get(DataSource);
    const pool = (dataSource.driver as PostgresDriver).master as pg.Pool;
    // Lent out and idle, with no listener of its caller: the moment a killed postmaster hits.
    const client = await pool.connect();
    const [{ pid }] = (await client.query('SELECT pg_backend_pid() AS pid')).rows as {
      pid: number;
    }[];
    const cut = new Promise<void>((resolve) => client.once('end', () => resolve()));

    expect(
      await app.trove.query<{ terminated: boolean }>(
        'SELECT pg_terminate_backend($1) AS terminated',
        [pid],
      ),
    ).toEqual([{ terminated: true }]);
    await cut;
    client.release(true);

    await app.trove.http.get('/api/v1/health/ready').expect(200, { status: 'ok' });
    const [{ answer }] = (await pool.query('SELECT 42 AS answer')).rows as { answer: number }[];
    expect(answer).toBe(42);
  });
});
