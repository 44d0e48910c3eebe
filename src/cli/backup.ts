import 'reflect-metadata';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { loadConfig, type TroveConfig } from '../platform/config/configuration.js';
import { ConfigurationError } from '../platform/config/env.js';

const USAGE = 'usage: npm run backup [-- --verify <archive or s3://bucket/key> | --list]';

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** Only warnings and errors are logged, so stdout carries the result. */
const quiet = (level: string): string =>
  ['error', 'fatal', 'silent'].includes(level) ? level : 'warn';

const rowsOf = (tables: Record<string, number>): number =>
  Object.values(tables).reduce((sum, count) => sum + count, 0);

/**
 * `npm run backup`: makes an instance backup now, as the schedule does: every table in one
 * snapshot, the stored files and the instance's secrets, encrypted when a passphrase or key is
 * set, its restore rehearsed in a scratch database, stored in TROVE_BACKUP_DIR and/or the backup
 * bucket, which are then pruned by the retention settings; it is listed for the instance
 * administrators. `--verify <archive>` checks an archive (a file or `s3://bucket/key`) whole and
 * rehearses its restore in a scratch database, which it drops. `--list` prints the backups kept
 * in the directory and the bucket. Trove may be running on an external database; the embedded
 * one must not be in use by a running Trove. Exits 1 when the backup or the check fails, 2 on
 * bad usage, 78 on a bad configuration.
 */
async function main(): Promise<void> {
  let verify: string | undefined;
  let list = false;
  try {
    const { values, positionals } = parseArgs({
      options: { verify: { type: 'string' }, list: { type: 'boolean' } },
      allowPositionals: false,
    });
    verify = values.verify;
    list = values.list ?? false;
    if (positionals.length > 0 || (list && verify)) fail(USAGE, 2);
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
  config = {
    ...config,
    log: { ...config.log, level: quiet(config.log.level) },
    jobs: { ...config.jobs, workersEnabled: false },
  };
  const destinations =
    await import('../operations/instance-backups/instance-backup-destinations.js');
  if (list) {
    for (const destination of await destinations.backupDestinations(config.backups)) {
      try {
        const backups = await destination.list();
        backups.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
        for (const backup of backups) {
          process.stdout.write(`${destination.locationOf(backup.name)}\n`);
        }
      } finally {
        destination.close();
      }
    }
    return;
  }
  const [{ NestFactory }, { AppModule }, logging, { startDatabaseServer }, reader, service] =
    await Promise.all([
      import('@nestjs/core'),
      import('../app.module.js'),
      import('../platform/logging/logger.js'),
      import('../platform/database/database-server.js'),
      import('../operations/instance-backups/instance-backup-reader.js'),
      import('../operations/instance-backups/instance-backups.service.js'),
    ]);
  const logger = logging.createLogger(config.log);
  const database = await startDatabaseServer(config, (line) => logger.debug(line));
  try {
    const startedAt = performance.now();
    if (verify) {
      let archive: Awaited<ReturnType<typeof destinations.localArchive>> | undefined;
      try {
        archive = await destinations.localArchive(verify, config, os.tmpdir());
        const manifest = await reader.verifyInstanceBackup(
          archive.file,
          database.url,
          config.backups.encryption,
        );
        process.stdout.write(
          `${verify}: verified in ${Math.round(performance.now() - startedAt)} ms: Trove ${manifest.troveVersion}, schema ${manifest.schemaVersion}, ${Object.keys(manifest.tables).length} tables, ${rowsOf(manifest.tables)} rows, ${manifest.fileCount} files, every checksum and row count as the manifest says\n`,
        );
      } catch (error) {
        process.stderr.write(`${verify}: not verified: ${(error as Error).message}\n`);
        process.exitCode = 1;
      } finally {
        await archive?.release();
      }
      return;
    }
    const app = await NestFactory.createApplicationContext(
      AppModule.forRoot(config, database.url, database),
      { logger: new logging.PinoNestLogger(logger), abortOnError: false },
    );
    try {
      const run = await app.get(service.InstanceBackupsService).run('command');
      process.stdout.write(
        `${run.name}: ${run.size} bytes in ${Math.round(performance.now() - startedAt)} ms: ${rowsOf(run.manifest.tables)} rows of ${Object.keys(run.manifest.tables).length} tables, ${run.manifest.fileCount} files, restore rehearsed; stored at ${run.locations.join(', ')}\n`,
      );
      for (const name of run.deleted) process.stdout.write(`${name}: deleted (retention)\n`);
    } catch (error) {
      process.stderr.write(`backup failed: ${(error as Error).message}\n`);
      process.exitCode = 1;
    } finally {
      await app.close();
    }
  } finally {
    await database.stop();
  }
}

await main();
