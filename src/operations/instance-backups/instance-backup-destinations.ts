import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { TroveConfig } from '../../platform/config/configuration.js';
import type { Storage } from '../../platform/storage/storage.js';
import { instanceBackupTime } from './instance-backup-format.js';
import { backupsToKeep, type BackupRetention } from './instance-backup-retention.js';

/** A backup stored in a destination, with the time its name carries. */
export interface StoredBackup {
  name: string;
  createdAt: Date;
}

/**
 * A place instance backups are kept: TROVE_BACKUP_DIR or the backup bucket. Each lists, takes,
 * hands back and deletes whole archives by their file names.
 */
export interface BackupDestination {
  /** Where a backup of this name is, for people: a path or `s3://bucket/key`. */
  locationOf(name: string): string;
  list(): Promise<StoredBackup[]>;
  /** Takes a finished archive in under `name` from a local file, which it may move. */
  store(name: string, file: string): Promise<void>;
  /** Copies the archive `name` out into a local file. */
  fetch(name: string, file: string): Promise<void>;
  delete(name: string): Promise<void>;
  close(): void;
}

const backupsAmong = (names: Iterable<string>): StoredBackup[] =>
  [...names].flatMap((name) => {
    const createdAt = instanceBackupTime(name);
    return createdAt ? [{ name, createdAt }] : [];
  });

/** TROVE_BACKUP_DIR: a directory on this machine (by default on the data's own disk). */
export class DirectoryDestination implements BackupDestination {
  constructor(readonly dir: string) {}

  locationOf(name: string): string {
    return path.join(this.dir, name);
  }

  async list(): Promise<StoredBackup[]> {
    const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    return backupsAmong(names);
  }

  async store(name: string, file: string): Promise<void> {
    try {
      await rename(file, this.locationOf(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await pipeline(createReadStream(file), createWriteStream(this.locationOf(name)));
    }
  }

  async fetch(name: string, file: string): Promise<void> {
    await pipeline(createReadStream(this.locationOf(name)), createWriteStream(file));
  }

  async delete(name: string): Promise<void> {
    await rm(this.locationOf(name), { force: true });
  }

  close(): void {}
}

/** The backup bucket (TROVE_BACKUP_S3_BUCKET), under its prefix: off the machine. */
export class BucketDestination implements BackupDestination {
  private constructor(
    private readonly settings: NonNullable<TroveConfig['backups']['s3']>,
    private readonly storage: Storage,
  ) {}

  static async open(
    settings: NonNullable<TroveConfig['backups']['s3']>,
  ): Promise<BucketDestination> {
    // Loaded only with a bucket: the AWS SDK is a large part of a process's memory.
    const { S3Storage } = await import('../../platform/storage/s3.storage.js');
    return new BucketDestination(settings, new S3Storage(settings));
  }

  locationOf(name: string): string {
    const prefix = this.settings.prefix.replace(/^\/+|\/+$/g, '');
    return `s3://${this.settings.bucket}/${prefix ? `${prefix}/` : ''}${name}`;
  }

  async list(): Promise<StoredBackup[]> {
    const names: string[] = [];
    for await (const key of this.storage.keys()) if (!key.includes('/')) names.push(key);
    return backupsAmong(names);
  }

  async store(name: string, file: string): Promise<void> {
    await this.storage.put(name, createReadStream(file), 'application/octet-stream');
  }

  async fetch(name: string, file: string): Promise<void> {
    const stored = await this.storage.get(name);
    await pipeline(stored.body, createWriteStream(file));
  }

  async delete(name: string): Promise<void> {
    await this.storage.delete(name);
  }

  close(): void {
    this.storage.close();
  }
}

/**
 * The destinations the settings name: the bucket, then the directory (unless the bucket alone
 * keeps them), which may move the file it is given, so it comes last.
 */
export async function backupDestinations(
  settings: TroveConfig['backups'],
): Promise<BackupDestination[]> {
  const destinations: BackupDestination[] = [];
  if (settings.s3) destinations.push(await BucketDestination.open(settings.s3));
  if (settings.localCopy) destinations.push(new DirectoryDestination(settings.instanceDir));
  return destinations;
}

/** Deletes the backups of a destination that retention no longer keeps; returns their names. */
export async function pruneBackups(
  destination: BackupDestination,
  retention: BackupRetention,
): Promise<string[]> {
  const backups = await destination.list();
  const kept = new Set(backupsToKeep(backups, retention));
  const deleted: string[] = [];
  for (const backup of backups) {
    if (kept.has(backup)) continue;
    await destination.delete(backup.name);
    deleted.push(backup.name);
  }
  return deleted;
}

/**
 * An archive to restore or verify as a local file: a path as it is, or `s3://bucket/key`
 * fetched into `tempDir` with the backup bucket's settings (the storage's when none is set).
 * `release` deletes what was fetched.
 */
export async function localArchive(
  reference: string,
  settings: TroveConfig,
  tempDir: string,
): Promise<{ file: string; release: () => Promise<void> }> {
  const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(reference);
  if (!match) return { file: path.resolve(reference), release: () => Promise.resolve() };
  const [, bucket, key] = match;
  const slash = key.lastIndexOf('/');
  const bucketSettings = settings.backups.s3 ?? { ...settings.storage.s3 };
  const destination = await BucketDestination.open({
    ...bucketSettings,
    bucket,
    prefix: slash === -1 ? '' : key.slice(0, slash),
  });
  const file = path.join(tempDir, `trove-restore-${process.pid}-${key.slice(slash + 1)}`);
  try {
    await destination.fetch(key.slice(slash + 1), file);
  } catch (error) {
    await rm(file, { force: true });
    throw new Error(`${reference} could not be fetched: ${(error as Error).message}`, {
      cause: error,
    });
  } finally {
    destination.close();
  }
  return { file, release: () => rm(file, { force: true }) };
}
