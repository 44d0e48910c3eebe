import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  HttpException,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { StagedUpload } from '../../platform/http/upload/staged-upload.engine.js';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';
import { GroupLifecycle } from '../../identity/groups/group-lifecycle.js';
import { JobQueue, type JobAttempt } from '../../platform/jobs/job-queue.js';
import { Storage } from '../../platform/storage/storage.js';
import { BackupFormatError, type BackupSource } from './backup-format.js';
import { BackupRestorer, CollectionNotEmptyError } from './backup-restorer.js';
import { BackupFileMissingError, BackupWriter } from './backup-writer.js';
import type { GroupExportDto, GroupExportListDto } from './dto/group-export.dto.js';
import { openBackup } from './formats/backup-formats.js';
import type { GroupExportKind } from './group-export-status.js';
import { toGroupExportDto } from './group-export.mapper.js';
import { GroupExportRepository, type GroupExportRow } from './group-export.repository.js';
import { notOwned } from '../../platform/database/owned.js';

export const EXPORT_JOB = 'group-exports.export';
export const IMPORT_JOB = 'group-exports.import';
export const PURGE_JOB = 'group-exports.purge';

/** Jobs and artifacts older than this are purged. */
export const STALE_AFTER_DAYS = 7;
const PURGE_BATCH = 200;

export const NOT_READY_MESSAGE = 'export not ready';
export const OWNER_IMPORT_MESSAGE = 'only group owners can import';

interface BackupJob {
  id: string;
}

/** The attempt no longer holds the job (taken over, or the job was deleted). */
class SupersededError extends Error {}

/** A download: the zip's size and a stream of it. */
export interface ExportDownload {
  fileName: string;
  size: number;
  body: Readable;
}

/**
 * Collection backups (Homebox §18): exports write a backup zip of the group into storage, imports
 * restore one into an empty group. Both are jobs on the durable queue, one per row of
 * `group_exports`: each runs on one instance, is run again from the start elsewhere when its
 * instance dies (after `TROVE_BACKUP_JOB_EXPIRY`, or at once when it shuts down), and reports
 * its progress on the row, with `export.mutation` / `import.mutation` on the change feed in the
 * unit of work of each change. A daily job purges jobs and artifacts older than seven days.
 */
@Injectable()
export class GroupExportsService implements OnModuleInit {
  private readonly logger = new Logger('GroupExports');

  constructor(
    private readonly exports: GroupExportRepository,
    private readonly writer: BackupWriter,
    private readonly restorer: BackupRestorer,
    private readonly storage: Storage,
    private readonly jobs: JobQueue,
    private readonly changes: ChangeEvents,
    private readonly config: ConfigService<TroveConfig, true>,
    private readonly groups: GroupLifecycle,
  ) {}

  onModuleInit(): void {
    // A deleted group's jobs go with it (cascade); their zips are deleted after it.
    this.groups.register('collection-backups', {
      files: {
        keysOf: (groupId) => this.exports.artifactKeysOfGroup(groupId),
        release: async (keys) => {
          for (const key of keys) await this.deleteArtifact(key);
        },
      },
    });
    const expireInSeconds = this.config.get('backups', { infer: true }).jobExpirySeconds;
    this.jobs.register<BackupJob>({
      name: EXPORT_JOB,
      retryLimit: 3,
      retryDelaySeconds: 5,
      expireInSeconds,
      handle: (job, attempt) => this.runExport(job.id, attempt),
    });
    this.jobs.register<BackupJob>({
      name: IMPORT_JOB,
      retryLimit: 3,
      retryDelaySeconds: 5,
      expireInSeconds,
      handle: (job, attempt) => this.runImport(job.id, attempt),
    });
    this.jobs.register<object>({
      name: PURGE_JOB,
      retryLimit: 2,
      schedule: { cron: '23 3 * * *', data: {} },
      handle: async () => {
        await this.purgeStale();
      },
    });
  }

  /** Queues an export of the caller's group. */
  async createExport(user: AuthUser): Promise<GroupExportDto> {
    const row = await this.exports.transaction(async () => {
      const inserted = await this.exports.insert({
        groupId: user.groupId,
        userId: user.id,
        kind: 'export',
        artifactKey: null,
        sizeBytes: 0,
      });
      await this.jobs.send<BackupJob>(EXPORT_JOB, { id: inserted.id });
      await this.changes.publish(user.groupId, 'export.mutation');
      return inserted;
    });
    return toGroupExportDto(row);
  }

  async list(user: AuthUser): Promise<GroupExportListDto> {
    return { items: (await this.exports.list(user.groupId)).map(toGroupExportDto) };
  }

  async get(user: AuthUser, id: string): Promise<GroupExportDto> {
    return toGroupExportDto(await this.findOrFail(user, id));
  }

  /** The zip of a completed export; 409 until then. */
  async download(user: AuthUser, id: string): Promise<ExportDownload> {
    const row = await this.findOrFail(user, id);
    if (row.kind !== 'export' || row.status !== 'completed' || !row.artifactKey) {
      throw new ConflictException(NOT_READY_MESSAGE);
    }
    const file = await this.storage.get(row.artifactKey);
    return { fileName: `trove-export-${row.id}.zip`, size: file.size, body: file.body };
  }

  /** Deletes a job and its artifact; unknown ids are fine (idempotent). */
  async remove(user: AuthUser, id: string): Promise<void> {
    const row = await this.exports.transaction(async () => {
      const deleted = await this.exports.delete(user.groupId, id);
      if (deleted) await this.changes.publish(user.groupId, eventOf(deleted.kind));
      return deleted;
    });
    if (row?.artifactKey) await this.deleteArtifact(row.artifactKey);
  }

  /**
   * Queues the restore of an uploaded backup zip into the caller's group: refused in demo mode,
   * to anyone but an owner, for a zip that cannot be read (checked whole before anything is
   * written) and for a collection that is not empty. The zip is kept in storage for the job.
   */
  async createImport(user: AuthUser, file: StagedUpload | undefined): Promise<GroupExportDto> {
    try {
      if (this.config.get('options', { infer: true }).demo) {
        throw new ForbiddenException('not allowed in demo mode');
      }
      if (user.role !== 'owner') throw new ForbiddenException(OWNER_IMPORT_MESSAGE);
      if (!file) throw new BadRequestException('file is required: a backup zip');
      await this.checkBackup(file.path);
      if (!(await this.restorer.isEmpty(user.groupId))) {
        throw new ConflictException(new CollectionNotEmptyError().message);
      }
      const importId = randomUUID();
      const key = `${user.groupId}/imports/${importId}.zip`;
      await this.storage.put(key, createReadStream(file.path), 'application/zip');
      try {
        const row = await this.exports.transaction(async () => {
          const inserted = await this.exports.insert({
            groupId: user.groupId,
            userId: user.id,
            kind: 'import',
            artifactKey: key,
            sizeBytes: file.size,
          });
          await this.jobs.send<BackupJob>(IMPORT_JOB, { id: inserted.id });
          await this.changes.publish(user.groupId, 'import.mutation');
          return inserted;
        });
        return toGroupExportDto(row);
      } catch (error) {
        await this.deleteArtifact(key);
        throw error;
      }
    } finally {
      if (file) await rm(file.path, { force: true });
    }
  }

  /** Deletes jobs older than seven days and their artifacts; returns how many. */
  async purgeStale(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - STALE_AFTER_DAYS * 24 * 60 * 60 * 1000);
    let purged = 0;
    for (;;) {
      const rows = await this.exports.stale(before, PURGE_BATCH);
      if (rows.length === 0) return purged;
      for (const row of rows) if (row.artifactKey) await this.deleteArtifact(row.artifactKey);
      await this.exports.transaction(async () => {
        await this.exports.deleteMany(rows.map((row) => row.id));
        for (const row of rows) await this.changes.publish(row.groupId, eventOf(row.kind));
      });
      purged += rows.length;
      if (rows.length < PURGE_BATCH) return purged;
    }
  }

  private async findOrFail(user: AuthUser, id: string): Promise<GroupExportRow> {
    const row = await this.exports.find(user.groupId, id);
    if (!row) throw notOwned('export', id);
    return row;
  }

  /** Opens, checks and reads the whole zip once; a 4xx for anything wrong. */
  private async checkBackup(file: string): Promise<void> {
    let source: BackupSource | undefined;
    try {
      source = await openBackup(file);
      await this.restorer.validate(source);
    } catch (error) {
      if (error instanceof BackupFormatError) {
        throw new HttpException(error.message, error.status);
      }
      throw error;
    } finally {
      await source?.close();
    }
  }

  private async runExport(id: string, attempt: JobAttempt): Promise<void> {
    const attemptId = randomUUID();
    const job = await this.start(id, attemptId);
    if (!job) return;
    const key = `${job.groupId}/exports/${job.id}-${attemptId}.zip`;
    try {
      const size = await this.writer.write(job.groupId, key, (percent) =>
        this.report(job, attemptId, percent),
      );
      const completed = await this.exports.transaction(async () => {
        const row = await this.exports.complete(job.id, attemptId, key, size);
        if (row) await this.changes.publish(job.groupId, 'export.mutation');
        return row;
      });
      if (!completed) await this.deleteArtifact(key);
    } catch (error) {
      await this.deleteArtifact(key);
      await this.failed(job, attemptId, attempt, error, error instanceof BackupFileMissingError);
    }
  }

  private async runImport(id: string, attempt: JobAttempt): Promise<void> {
    const attemptId = randomUUID();
    const job = await this.start(id, attemptId);
    if (!job) return;
    const staging = path.join(this.config.get('dataDir', { infer: true }), 'tmp', 'imports');
    const local = path.join(staging, `${job.id}-${attemptId}.zip`);
    let source: BackupSource | undefined;
    try {
      if (!job.artifactKey) throw new BackupFormatError('the uploaded zip is gone');
      await mkdir(staging, { recursive: true });
      const { body } = await this.storage.get(job.artifactKey);
      await pipeline(body, createWriteStream(local));
      source = await openBackup(local);
      await this.restorer.restore(
        job.groupId,
        source,
        (percent) => this.report(job, attemptId, percent),
        async () => {
          const row = await this.exports.complete(job.id, attemptId, null, Number(job.sizeBytes));
          if (!row) throw new SupersededError();
          await this.changes.publish(job.groupId, 'import.mutation');
          await this.changes.publish(job.groupId, 'entity.mutation');
          await this.changes.publish(job.groupId, 'tag.mutation');
        },
      );
      await this.deleteArtifact(job.artifactKey);
    } catch (error) {
      const permanent =
        error instanceof BackupFormatError || error instanceof CollectionNotEmptyError;
      const failed = await this.failed(job, attemptId, attempt, error, permanent);
      if (failed && job.artifactKey) await this.deleteArtifact(job.artifactKey);
    } finally {
      await source?.close();
      await rm(local, { force: true });
    }
  }

  /** Takes the job over for this attempt: running, at 0 %. Null when it is finished or gone. */
  private start(id: string, attemptId: string): Promise<GroupExportRow | null> {
    return this.exports.transaction(async () => {
      const row = await this.exports.start(id, attemptId);
      if (row) await this.changes.publish(row.groupId, eventOf(row.kind));
      return row;
    });
  }

  /** Progress, in its own unit of work (seen at once); stops an attempt that lost the job. */
  private async report(job: GroupExportRow, attemptId: string, percent: number): Promise<void> {
    const value = Math.max(0, Math.min(99, Math.floor(percent)));
    await this.exports.outside(() =>
      this.exports.transaction(async () => {
        const row = await this.exports.setProgress(job.id, attemptId, value);
        if (!row) throw new SupersededError();
        await this.changes.publish(job.groupId, eventOf(job.kind));
      }),
    );
  }

  /**
   * After an attempt failed: records the failure on the row when it is permanent or the last
   * attempt (true), else rethrows so that the queue tries again. Nothing when the attempt had
   * lost the job anyway.
   */
  private async failed(
    job: GroupExportRow,
    attemptId: string,
    attempt: JobAttempt,
    error: unknown,
    permanent: boolean,
  ): Promise<boolean> {
    if (error instanceof SupersededError) return false;
    const message = error instanceof Error ? error.message : String(error);
    if (!permanent && attempt.retryCount < attempt.retryLimit) throw error;
    this.logger.warn(`${job.kind} ${job.id} failed: ${message}`);
    const row = await this.exports.transaction(async () => {
      const failed = await this.exports.fail(job.id, attemptId, message);
      if (failed) await this.changes.publish(job.groupId, eventOf(job.kind));
      return failed;
    });
    return row !== null;
  }

  private async deleteArtifact(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
    } catch (error) {
      this.logger.warn(
        `could not delete backup artifact ${key}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

function eventOf(kind: GroupExportKind): 'export.mutation' | 'import.mutation' {
  return kind === 'export' ? 'export.mutation' : 'import.mutation';
}
