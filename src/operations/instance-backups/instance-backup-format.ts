import type { SequencePosition } from '../../platform/database/database-copy.js';

/**
 * An instance backup is one gzip-compressed tar archive, written as a stream (and, when
 * encryption is set, an age file of it: `.tar.gz.age`):
 *
 * - `tables/<table>.copy`: the rows of each table of Trove's schema in PostgreSQL's `COPY` text
 *   format, all read in one snapshot. The instance's secrets (`server_secrets`) are among them.
 * - `files/<key>`: each stored file (attachments, photos, group zips) under its storage key.
 * - `manifest.json`, last: the format, Trove's version, the schema version (latest migration),
 *   rows per table, sequences, and the size and sha256 of every other entry.
 */
export const INSTANCE_BACKUP_FORMAT = 'trove-instance-backup';
export const INSTANCE_BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
export const TABLES_PREFIX = 'tables/';
export const FILES_PREFIX = 'files/';

/** One entry of the archive as the manifest vouches for it. */
export interface InstanceBackupPart {
  name: string;
  size: number;
  sha256: string;
}

export interface InstanceBackupManifest {
  format: typeof INSTANCE_BACKUP_FORMAT;
  formatVersion: number;
  troveVersion: string;
  /** The latest migration applied to the database backed up. */
  schemaVersion: string;
  createdAt: string;
  /** Rows per table. */
  tables: Record<string, number>;
  sequences: SequencePosition[];
  /** Every entry but the manifest, in archive order. */
  parts: InstanceBackupPart[];
  fileCount: number;
}

/** An archive refused before anything was restored: damaged, foreign, newer, or unreadable. */
export class InstanceBackupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstanceBackupRefused';
  }
}

/** The file name of a backup made at `at`: sorts by time; `.age` when encrypted. */
export function instanceBackupFileName(at: Date, encrypted = false): string {
  return `trove-backup-${at.toISOString().replace(/[:.]/g, '-')}.tar.gz${encrypted ? '.age' : ''}`;
}

const BACKUP_NAME =
  /^trove-backup-(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z\.tar\.gz(\.age)?$/;

/** The time a backup's file name carries; undefined for a name that is not a backup's. */
export function instanceBackupTime(name: string): Date | undefined {
  const match = BACKUP_NAME.exec(name);
  if (!match) return undefined;
  const [, date, hours, minutes, seconds, millis] = match;
  return new Date(`${date}T${hours}:${minutes}:${seconds}.${millis}Z`);
}
