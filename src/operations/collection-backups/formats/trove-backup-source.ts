import type { Readable } from 'node:stream';
import {
  attachmentEntryName,
  BACKUP_FILE_NAME,
  BACKUP_TABLES,
  BackupFormatError,
  type BackupManifest,
  type BackupRows,
  type BackupSource,
  type BackupTable,
  tableEntryName,
  TROVE_BACKUP_SCHEMA,
} from '../backup-format.js';
import type { BackupZip } from '../backup-zip.js';

/** Reads Trove's own `trove-1` zip: its rows are already in the restore's shapes. */
export class TroveBackupSource implements BackupSource {
  readonly manifest: BackupManifest;

  constructor(
    private readonly zip: BackupZip,
    manifest: Record<string, unknown>,
  ) {
    this.manifest = readManifest(manifest);
  }

  async *rows<T extends BackupTable>(table: T): AsyncIterable<BackupRows[T]> {
    const name = tableEntryName(table);
    for await (const row of this.zip.readJsonArray(name)) {
      if (typeof row !== 'object' || row === null || Array.isArray(row)) {
        throw new BackupFormatError(`${name} holds an element that is not an object`);
      }
      yield row as BackupRows[T];
    }
  }

  openFile(file: string): Promise<Readable> {
    if (!BACKUP_FILE_NAME.test(file)) {
      return Promise.reject(new BackupFormatError(`invalid attachment file name ${file}`));
    }
    return this.zip.open(attachmentEntryName(file));
  }

  close(): Promise<void> {
    return this.zip.close();
  }
}

function readManifest(raw: Record<string, unknown>): BackupManifest {
  const { exportedAt, groupId, troveVersion, counts } = raw;
  if (
    typeof exportedAt !== 'string' ||
    typeof groupId !== 'string' ||
    typeof troveVersion !== 'string' ||
    typeof counts !== 'object' ||
    counts === null
  ) {
    throw new BackupFormatError('manifest.json lacks exportedAt, groupId, troveVersion or counts');
  }
  const read = counts as Record<string, unknown>;
  const numbers = {} as BackupManifest['counts'];
  for (const key of [...BACKUP_TABLES, 'files'] as const) {
    const value = read[key] ?? 0;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      throw new BackupFormatError(`manifest.json counts.${key} is not a count`);
    }
    numbers[key] = value;
  }
  return {
    schemaVersion: TROVE_BACKUP_SCHEMA,
    exportedAt,
    groupId,
    troveVersion,
    counts: numbers,
  };
}
