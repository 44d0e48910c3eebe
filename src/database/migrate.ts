import type { DataSource, Migration } from 'typeorm';

/** Arbitrary constant that names Trove's migration lock among PostgreSQL advisory locks. */
const MIGRATION_LOCK_KEY = 7_745_001;

/**
 * Runs pending migrations, each in its own transaction, while holding a session-level
 * advisory lock, so that several instances starting together migrate once, in turn. The data
 * source needs a pool of at least two connections: one holds the lock while another migrates.
 */
export async function runMigrations(dataSource: DataSource): Promise<Migration[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await dataSource.runMigrations({ transaction: 'each' });
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}
