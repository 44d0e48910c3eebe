import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { DATABASE_CONNECTION_URL } from '../../platform/database/database-server.js';
import { JobQueue } from '../../platform/jobs/job-queue.js';
import { Storage } from '../../platform/storage/storage.js';
import { telemetry } from '../../platform/telemetry/telemetry.js';
import { backupDestinations, pruneBackups } from './instance-backup-destinations.js';
import { instanceBackupFileName, type InstanceBackupManifest } from './instance-backup-format.js';
import type { InstanceBackupTrigger } from './instance-backup.record.js';
import { InstanceBackupRepository, type InstanceBackupRow } from './instance-backup.repository.js';
import { InstanceBackupDto, type InstanceBackupPageDto } from './dto/instance-backup.dto.js';

/** The scheduled instance backup, a job of the queue (once across instances). */
export const INSTANCE_BACKUP_JOB = 'instance-backup.run';

export interface InstanceBackupRun {
  /** The archive's name and where it was stored (a path, `s3://bucket/key`). */
  name: string;
  locations: string[];
  size: number;
  manifest: InstanceBackupManifest;
  /** Backups that retention deleted, by name. */
  deleted: string[];
}

const OUTCOMES = [{ outcome: 'success' }, { outcome: 'failure' }];

/** How long a backup may run; one still running after that was ended by its process's end. */
const RUN_LIMIT_SECONDS = 6 * 60 * 60;

/**
 * Instance backups, on a schedule (`TROVE_BACKUP_SCHEDULE`, a job of the queue, so that one
 * instance of several sharing the database takes each one) and by `npm run backup`. A run
 * writes the archive into TROVE_BACKUP_DIR (encrypted when a passphrase or key is set),
 * rehearses its restore in a scratch database, stores it in the bucket and/or keeps it in the
 * directory, and prunes each by the retention settings. Each run is recorded for the instance
 * administrators' list and counted in the metrics; a failure is logged and the job retried
 * (three times), then recorded as failed by the queue.
 */
@Injectable()
export class InstanceBackupsService implements OnModuleInit {
  private readonly logger = new Logger('InstanceBackups');
  private readonly settings: TroveConfig['backups'];
  private readonly version: string;

  constructor(
    config: ConfigService<TroveConfig, true>,
    private readonly jobs: JobQueue,
    private readonly storage: Storage,
    private readonly backups: InstanceBackupRepository,
    @Inject(DATABASE_CONNECTION_URL) private readonly databaseUrl: string,
  ) {
    this.settings = config.get('backups', { infer: true });
    this.version = config.get('build', { infer: true }).version;
  }

  onModuleInit(): void {
    telemetry().declareCounter('trove.backups', OUTCOMES);
    telemetry().declareCounter('trove.backup.verifications', OUTCOMES);
    this.jobs.register({
      name: INSTANCE_BACKUP_JOB,
      retryLimit: 3,
      retryDelaySeconds: 300,
      expireInSeconds: RUN_LIMIT_SECONDS,
      ...(this.settings.schedule ? { schedule: { cron: this.settings.schedule, data: {} } } : {}),
      handle: async () => {
        await this.run('schedule');
      },
    });
  }

  /**
   * Writes, verifies, stores and prunes; throws (after logging) when any step fails. The backup's
   * row is added once its snapshot is taken, so that an archive never holds its own row (which a
   * restore would bring back as running forever); a run that fails before adds it as failed.
   */
  async run(trigger: InstanceBackupTrigger, now = new Date()): Promise<InstanceBackupRun> {
    const encryption = this.settings.encryption;
    const name = instanceBackupFileName(now, encryption !== null);
    const begin = (): Promise<InstanceBackupRow> =>
      this.backups.begin({ name, trigger, startedAt: now, encrypted: encryption !== null });
    let record: InstanceBackupRow | undefined;
    const dir = this.settings.instanceDir;
    const staged = path.join(dir, `.${name}`);
    try {
      await this.backups.endInterrupted(new Date(now.getTime() - RUN_LIMIT_SECONDS * 1000));
      // Loaded with the first backup: an idle instance does not hold the archive code.
      const [{ writeInstanceBackupFile }, destinations] = await Promise.all([
        import('./instance-backup-writer.js'),
        backupDestinations(this.settings),
      ]);
      try {
        await mkdir(dir, { recursive: true });
        const { manifest, size } = await writeInstanceBackupFile(
          {
            databaseUrl: this.databaseUrl,
            storage: this.storage,
            troveVersion: this.version,
            now: () => now,
            encryption,
            onSnapshot: async () => {
              record = await begin();
            },
          },
          staged,
        );
        const id = (record ??= await begin()).id;
        await this.backups.written(id, {
          sizeBytes: size,
          rowCount: Object.values(manifest.tables).reduce((sum, rows) => sum + rows, 0),
          fileCount: manifest.fileCount,
          tables: manifest.tables,
        });
        await this.rehearse(id, staged);
        const locations: string[] = [];
        for (const destination of destinations) {
          await destination.store(name, staged);
          locations.push(destination.locationOf(name));
        }
        await this.backups.completed(id, locations, new Date());
        const deleted = new Set<string>();
        for (const destination of destinations) {
          for (const gone of await pruneBackups(destination, this.settings.keep)) deleted.add(gone);
        }
        await this.backups.deleted([...deleted], new Date());
        telemetry().count('trove.backups', { outcome: 'success' });
        this.logger.log(
          `instance backup ${name} written, verified and stored (${size} bytes, ${manifest.fileCount} files) at ${locations.join(', ')}; ${deleted.size} old backup(s) deleted`,
        );
        return { name, locations, size, manifest, deleted: [...deleted] };
      } finally {
        for (const destination of destinations) destination.close();
      }
    } catch (error) {
      const message = (error as Error).message;
      telemetry().count('trove.backups', { outcome: 'failure' });
      try {
        await this.backups.failed((record ??= await begin()).id, new Date(), message);
      } catch {
        // The database itself may be what failed; the log and the metric still say it.
      }
      this.logger.error(`instance backup ${name} failed: ${message}`);
      throw error;
    } finally {
      await rm(staged, { force: true });
    }
  }

  /** The rehearsed restore of a written backup into a scratch database, recorded and counted. */
  private async rehearse(id: string, file: string): Promise<void> {
    const { verifyInstanceBackup } = await import('./instance-backup-reader.js');
    try {
      await verifyInstanceBackup(file, this.databaseUrl, this.settings.encryption);
    } catch (error) {
      telemetry().count('trove.backup.verifications', { outcome: 'failure' });
      await this.backups.verified(id, new Date(), false);
      throw new Error(`its rehearsed restore failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    telemetry().count('trove.backup.verifications', { outcome: 'success' });
    await this.backups.verified(id, new Date(), true);
  }

  /** A page of the backups made, newest first (the API's list and the console's). */
  async list(page: number, pageSize: number): Promise<InstanceBackupPageDto> {
    const { rows, total } = await this.backups.page(pageSize, (page - 1) * pageSize);
    return { page, pageSize, total, items: rows.map((row) => InstanceBackupDto.of(row)) };
  }
}
