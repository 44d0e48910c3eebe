import {
  BackupFormatError,
  MANIFEST_ENTRY,
  type BackupSource,
  TROVE_BACKUP_SCHEMA,
} from '../backup-format.js';
import { BackupZip } from '../backup-zip.js';
import { HOMEBOX_SCHEMA_VERSION, HomeboxBackupSource } from './homebox-backup-source.js';
import { TroveBackupSource } from './trove-backup-source.js';

/**
 * A kind of backup zip a restore can read: recognised by its `manifest.json`, and read as a
 * `BackupSource` in Trove's shapes.
 */
export interface BackupFormat {
  /** Shown in errors and logs ("Trove", "Homebox"). */
  readonly name: string;
  /** Whether `manifest.json` (parsed, an object) is this format's. */
  accepts(manifest: Record<string, unknown>): boolean;
  open(zip: BackupZip, manifest: Record<string, unknown>): BackupSource | Promise<BackupSource>;
}

export const TROVE_FORMAT: BackupFormat = {
  name: 'Trove',
  accepts: (manifest) => manifest.schemaVersion === TROVE_BACKUP_SCHEMA,
  open: (zip, manifest) => new TroveBackupSource(zip, manifest),
};

/** Homebox's collection export, schema version 1, read by its column names. */
export const HOMEBOX_FORMAT: BackupFormat = {
  name: 'Homebox',
  accepts: (manifest) => manifest.schemaVersion === HOMEBOX_SCHEMA_VERSION,
  open: (zip, manifest) => new HomeboxBackupSource(zip, manifest),
};

/** The formats a restore reads, tried in order. */
export const BACKUP_FORMATS: readonly BackupFormat[] = [TROVE_FORMAT, HOMEBOX_FORMAT];

/**
 * Opens a backup zip on local disk: checks the zip (entry names, expansion), reads its manifest
 * and picks the format that accepts it. `BackupFormatError` (a 4xx) for anything unreadable or an
 * unknown schema version. The caller closes the source.
 */
export async function openBackup(
  path: string,
  formats: readonly BackupFormat[] = BACKUP_FORMATS,
): Promise<BackupSource> {
  const zip = await BackupZip.open(path);
  try {
    const manifest = await zip.readJson(MANIFEST_ENTRY);
    if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
      throw new BackupFormatError('manifest.json is not a JSON object');
    }
    const fields = manifest as Record<string, unknown>;
    const format = formats.find((candidate) => candidate.accepts(fields));
    if (!format) {
      throw new BackupFormatError(
        `unknown backup schema version ${JSON.stringify(fields.schemaVersion ?? null)}`,
      );
    }
    return await format.open(zip, fields);
  } catch (error) {
    await zip.close();
    throw error;
  }
}
