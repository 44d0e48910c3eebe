import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  /** Drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('databaseAdminUrl') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A new database on the run's server: a clone of the migrated template, or with
 * `{ empty: true }` one without any table.
 */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `trove_test_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? '' : ` TEMPLATE "${inject('templateDatabase')}"`;
  await adminQuery(`CREATE DATABASE "${name}"${template}`);
  const url = new URL(inject('databaseAdminUrl'));
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
