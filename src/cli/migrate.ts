import 'reflect-metadata';
import { createLogger } from '../platform/logging/logger.js';
import { loadConfig } from '../platform/config/configuration.js';
import { installJobQueue } from '../platform/jobs/job-queue-schema.js';
import { startDatabaseServer } from '../platform/database/database-server.js';
import { migrateDatabase } from '../platform/database/migrate.js';

/** `npm run migration:run`: applies pending migrations to the configured database (and
 * installs or upgrades the job queue's tables) and exits. */
const config = loadConfig();
const logger = createLogger(config.log);
const database = await startDatabaseServer(config, (line) => logger.debug(line));
try {
  const applied = await migrateDatabase(database.url);
  await installJobQueue(database.url);
  logger.info(
    { applied: applied.map((migration) => migration.name) },
    `applied ${applied.length} migration(s)`,
  );
} finally {
  await database.stop();
}
