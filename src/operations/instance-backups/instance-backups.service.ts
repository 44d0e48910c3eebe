import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { DATABASE_CONNECTION_URL } from '../../platform/database/database-server.js';
import { JobQueue } from '../../platform/jobs/job-queue.js';
import { Storage } from '../../platform/storage/storage.js';
import { instanceBackupFileName, type InstanceBackupManifest } from './instance-backup-format.js';
import { verifyInstanceBackup } from './instance-backup-reader.js';
import { backupsToKeep, type BackupRetention } from './instance-backup-retention.js';
import { writeInstanceBackupFile } from './instance-backup-writer.js';

/** The scheduled instance backup, a job of the queue (once across instances). */
export const INSTANCE_BACKUP_JOB = 'instance-backup.run';

const BACKUP_NAME = /^trove-backup-(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z\.tar\.gz$/;

/** The backups in a directory, with the time their file names carry. */
export async function backupsIn(dir: string): Promise<{ name: string; createdAt: Date }[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return names.flatMap((name) => {
    const match = BACKUP_NAME.exec(name);
    if (!match) return [];
    const [, date, hours, minutes, seconds, millis] = match;
    return [{ name, createdAt: new Date(`${date}T${hours}:${minutes}:${seconds}.${millis}Z`) }];
  });
}

/** Deletes the backups in `dir` that retention no longer keeps; returns their names. */
export async function pruneBackups(dir: string, retention: BackupRetention): Promise<string[]> {
  const backups = await backupsIn(dir);
  const kept = new Set(backupsToKeep(backups, retention));
  const deleted: string[] = [];
  for (const backup of backups) {
    if (kept.has(backup)) continue;
    await rm(path.join(dir, backup.name), { force: true });
    deleted.push(backup.name);
  }
  return deleted;
}

export interface InstanceBackupRun {
  file: string;
  size: number;
  manifest: InstanceBackupManifest;
  deleted: string[];
}

/**
 * Instance backups on a schedule (`TROVE_BACKUP_SCHEDULE`): a job of the queue, so that one
 * instance of several sharing the database takes each one. A run writes a backup to
 * `TROVE_BACKUP_DIR`, rehearses its restore in a scratch database, and prunes the directory by
 * the retention settings. A failure is logged and the job retried (three times), then recorded
 * as failed by the queue.
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
    @Inject(DATABASE_CONNECTION_URL) private readonly databaseUrl: string,
  ) {
    this.settings = config.get('backups', { infer: true });
    this.version = config.get('build', { infer: true }).version;
  }

  onModuleInit(): void {
    this.jobs.register({
      name: INSTANCE_BACKUP_JOB,
      retryLimit: 3,
      retryDelaySeconds: 300,
      expireInSeconds: 6 * 60 * 60,
      ...(this.settings.schedule ? { schedule: { cron: this.settings.schedule, data: {} } } : {}),
      handle: async () => {
        await this.run();
      },
    });
  }

  /** Writes, verifies and prunes; throws (after logging) when the backup or its check fails. */
  async run(now = new Date()): Promise<InstanceBackupRun> {
    try {
      const dir = this.settings.instanceDir;
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, instanceBackupFileName(now));
      const { manifest, size } = await writeInstanceBackupFile(
        {
          databaseUrl: this.databaseUrl,
          storage: this.storage,
          troveVersion: this.version,
          now: () => now,
        },
        file,
      );
      await verifyInstanceBackup(file, this.databaseUrl);
      const deleted = await pruneBackups(dir, this.settings.keep);
      this.logger.log(
        `instance backup ${file} written and verified (${size} bytes, ${manifest.fileCount} files); ${deleted.length} old backup(s) deleted`,
      );
      return { file, size, manifest, deleted };
    } catch (error) {
      this.logger.error(`instance backup failed: ${(error as Error).message}`);
      throw error;
    }
  }
}
