import { DataSource, type Migration } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options.js';

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

/** Connects to the database at `url`, applies its pending migrations and disconnects. */
export async function migrateDatabase(url: string): Promise<Migration[]> {
  const dataSource = await new DataSource(buildDataSourceOptions(url, 2)).initialize();
  try {
    return await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
