import 'reflect-metadata';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type TroveConfig } from '../platform/config/configuration.js';
import { ConfigurationError } from '../platform/config/env.js';

const USAGE = 'usage: npm run backup [-- --verify <archive>]';

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/**
 * `npm run backup`: writes a backup of the whole instance (every table in one snapshot, the
 * stored files, the instance's secrets) to TROVE_BACKUP_DIR, then deletes the backups there that
 * the retention settings no longer keep. `npm run backup -- --verify <archive>` checks an
 * archive whole and rehearses its restore in a scratch database, which it drops. Trove may be
 * running on an external database; the embedded one must not be in use by a running Trove.
 * Exits 1 when the backup or the check fails, 2 on bad usage, 78 on a bad configuration.
 */
async function main(): Promise<void> {
  let verify: string | undefined;
  try {
    const { values, positionals } = parseArgs({
      options: { verify: { type: 'string' } },
      allowPositionals: false,
    });
    verify = values.verify;
    if (positionals.length > 0) fail(USAGE, 2);
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`, 2);
  }
  let config: TroveConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigurationError) fail(error.message, 78);
    throw error;
  }
  const [logging, { startDatabaseServer }, { createStorage }, writer, reader, format, backups] =
    await Promise.all([
      import('../platform/logging/logger.js'),
      import('../platform/database/database-server.js'),
      import('../platform/storage/storage.module.js'),
      import('../operations/instance-backups/instance-backup-writer.js'),
      import('../operations/instance-backups/instance-backup-reader.js'),
      import('../operations/instance-backups/instance-backup-format.js'),
      import('../operations/instance-backups/instance-backups.service.js'),
    ]);
  const logger = logging.createLogger(config.log);
  const database = await startDatabaseServer(config, (line) => logger.debug(line));
  try {
    if (verify) {
      const startedAt = performance.now();
      try {
        const manifest = await reader.verifyInstanceBackup(path.resolve(verify), database.url);
        const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
        process.stdout.write(
          `${verify}: verified in ${Math.round(performance.now() - startedAt)} ms: Trove ${manifest.troveVersion}, schema ${manifest.schemaVersion}, ${Object.keys(manifest.tables).length} tables, ${rows} rows, ${manifest.fileCount} files, every checksum and row count as the manifest says\n`,
        );
      } catch (error) {
        fail(`${verify}: not verified: ${(error as Error).message}`);
      }
      return;
    }
    const storage = await createStorage(config.storage, config.dataDir);
    try {
      const dir = config.backups.instanceDir;
      await mkdir(dir, { recursive: true });
      const createdAt = new Date();
      const file = path.join(dir, format.instanceBackupFileName(createdAt));
      const startedAt = performance.now();
      const { manifest, size } = await writer.writeInstanceBackupFile(
        {
          databaseUrl: database.url,
          storage,
          troveVersion: config.build.version,
          now: () => createdAt,
        },
        file,
      );
      const rows = Object.values(manifest.tables).reduce((sum, count) => sum + count, 0);
      process.stdout.write(
        `${file}: ${size} bytes in ${Math.round(performance.now() - startedAt)} ms: ${rows} rows of ${Object.keys(manifest.tables).length} tables, ${manifest.fileCount} files\n`,
      );
      for (const name of await backups.pruneBackups(dir, config.backups.keep)) {
        process.stdout.write(`${path.join(dir, name)}: deleted (retention)\n`);
      }
    } finally {
      storage.close();
    }
  } finally {
    await database.stop();
  }
}

await main();
