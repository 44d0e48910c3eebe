import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { createLogger } from '../common/logging/logger.js';
import { loadConfig } from '../config/configuration.js';
import { installJobQueue } from '../jobs/job-queue-schema.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { startDatabaseServer } from './database-server.js';
import { runMigrations } from './migrate.js';

/** `npm run migration:run`: applies pending migrations to the configured database (and
 * installs or upgrades the job queue's tables) and exits. */
const config = loadConfig();
const logger = createLogger(config.log);
const database = await startDatabaseServer(config, (line) => logger.debug(line));
try {
  const dataSource = await new DataSource(buildDataSourceOptions(database.url, 2)).initialize();
  const applied = await runMigrations(dataSource);
  await dataSource.destroy();
  await installJobQueue(database.url);
  logger.info(
    { applied: applied.map((migration) => migration.name) },
    `applied ${applied.length} migration(s)`,
  );
} finally {
  await database.stop();
}
