import 'reflect-metadata';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig, type TroveConfig } from '../platform/config/configuration.js';
import { ConfigurationError } from '../platform/config/env.js';

const USAGE = 'usage: npm run restore -- <archive or s3://bucket/key>';

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/**
 * `npm run restore -- <archive>`: restores an instance backup (a file, or `s3://bucket/key`
 * fetched with the backup bucket's settings) into the configured database (DATABASE_URL, or the
 * embedded one in TROVE_DATA_DIR) and storage, which must both be empty. An encrypted archive
 * needs TROVE_BACKUP_PASSPHRASE or TROVE_BACKUP_AGE_KEY. The archive is checked whole first
 * (checksums, versions, the key); the restore is all or nothing, and
 * migrations of this Trove newer than the archive's are applied after it. Exits 1 when refused
 * or failed (nothing written), 2 on bad usage, 78 on a bad configuration.
 */
async function main(): Promise<void> {
  let archive: string | undefined;
  try {
    archive = parseArgs({ allowPositionals: true }).positionals[0];
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`, 2);
  }
  if (!archive) fail(USAGE, 2);
  let config: TroveConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigurationError) fail(error.message, 78);
    throw error;
  }
  const [logging, { startDatabaseServer }, { createStorage }, reader, destinations] =
    await Promise.all([
      import('../platform/logging/logger.js'),
      import('../platform/database/database-server.js'),
      import('../platform/storage/storage.module.js'),
      import('../operations/instance-backups/instance-backup-reader.js'),
      import('../operations/instance-backups/instance-backup-destinations.js'),
    ]);
  let local: Awaited<ReturnType<typeof destinations.localArchive>>;
  try {
    local = await destinations.localArchive(archive, config, os.tmpdir());
  } catch (error) {
    fail(`${archive}: not restored: ${(error as Error).message}`);
  }
  const logger = logging.createLogger(config.log);
  const database = await startDatabaseServer(config, (line) => logger.debug(line));
  try {
    const storage = await createStorage(config.storage, config.dataDir);
    try {
      const startedAt = performance.now();
      const manifest = await reader.restoreInstanceBackup(
        local.file,
        { databaseUrl: database.url, storage },
        config.backups.encryption,
      );
      const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
      process.stdout.write(
        `${archive}: restored in ${Math.round(performance.now() - startedAt)} ms: ${rows} rows, ${manifest.fileCount} files, from Trove ${manifest.troveVersion} (schema ${manifest.schemaVersion})\n`,
      );
    } catch (error) {
      process.stderr.write(`${archive}: not restored: ${(error as Error).message}\n`);
      process.exitCode = 1;
    } finally {
      storage.close();
    }
  } finally {
    await database.stop();
    await local.release();
  }
}

await main();
