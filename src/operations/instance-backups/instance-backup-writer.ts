import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import type { BackupEncryptionSettings } from '../../platform/config/configuration.js';
import { DatabaseSnapshot } from '../../platform/database/database-copy.js';
import { StoredFileNotFoundError, type Storage } from '../../platform/storage/storage.js';
import {
  FILES_PREFIX,
  INSTANCE_BACKUP_FORMAT,
  INSTANCE_BACKUP_FORMAT_VERSION,
  MANIFEST_ENTRY,
  TABLES_PREFIX,
  type InstanceBackupManifest,
  type InstanceBackupPart,
} from './instance-backup-format.js';
import { encryptingStream } from './instance-backup-encryption.js';

export interface InstanceBackupSource {
  databaseUrl: string;
  storage: Storage;
  troveVersion: string;
  /** Where table data is spooled while its size is not yet known; the system's by default. */
  tempDir?: string;
  now?: () => Date;
  /** Encrypts the archive (age) with a passphrase or to a key; none: plain. */
  encryption?: BackupEncryptionSettings | null;
  /** Called once the snapshot is taken: what is written from then on is not in the archive. */
  onSnapshot?: () => Promise<void>;
}

/** Passes bytes through while hashing and counting them (and their newlines: COPY rows). */
class Measure extends Transform {
  private readonly hash = createHash('sha256');
  size = 0;
  lines = 0;

  override _transform(chunk: Buffer, _encoding: string, done: () => void): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.lines += 1;
    this.push(chunk);
    done();
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** Writes one entry of known size from a stream into the pack. */
async function addEntry(pack: tar.Pack, name: string, size: number, body: Readable): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const entry = pack.entry({ name, size, mode: 0o600, mtime: new Date(0) }, (error) =>
      error ? reject(error) : resolve(),
    );
    pipeline(body, entry).catch(reject);
  });
}

/**
 * Writes a backup of the whole instance to `output` as a stream: every table in one snapshot,
 * then every stored file, then the manifest. Table data is spooled to a temporary file first,
 * since a tar entry states its size before its bytes; memory stays flat.
 */
export async function writeInstanceBackup(
  source: InstanceBackupSource,
  output: Writable,
): Promise<InstanceBackupManifest> {
  const pack = tar.pack();
  const written = source.encryption
    ? pipeline(pack, createGzip(), await encryptingStream(source.encryption), output)
    : pipeline(pack, createGzip(), output);
  // A failure of the output ends the pack, so that no entry waits forever.
  written.catch((error: unknown) => pack.destroy(error as Error));
  const spool = await mkdtemp(path.join(source.tempDir ?? os.tmpdir(), 'trove-backup-'));
  const parts: InstanceBackupPart[] = [];
  const tables: Record<string, number> = {};
  const createdAt = (source.now ?? (() => new Date()))();
  let manifest: InstanceBackupManifest;
  try {
    const snapshot = await DatabaseSnapshot.open(source.databaseUrl);
    try {
      await source.onSnapshot?.();
      for (const table of snapshot.tables) {
        const file = path.join(spool, 'table.copy');
        const measure = new Measure();
        await pipeline(snapshot.copyOut(table), measure, createWriteStream(file));
        const name = `${TABLES_PREFIX}${table}.copy`;
        await addEntry(pack, name, measure.size, createReadStream(file));
        parts.push({ name, size: measure.size, sha256: measure.digest() });
        tables[table] = measure.lines;
      }
    } finally {
      await snapshot.close();
    }
    let fileCount = 0;
    for await (const key of source.storage.keys()) {
      let stored;
      try {
        stored = await source.storage.get(key);
      } catch (error) {
        // Deleted since it was listed: a file no row of the snapshot can still need.
        if (error instanceof StoredFileNotFoundError) continue;
        throw error;
      }
      const measure = new Measure();
      const name = `${FILES_PREFIX}${key}`;
      await addEntry(pack, name, stored.size, stored.body.pipe(measure));
      parts.push({ name, size: measure.size, sha256: measure.digest() });
      fileCount += 1;
    }
    manifest = {
      format: INSTANCE_BACKUP_FORMAT,
      formatVersion: INSTANCE_BACKUP_FORMAT_VERSION,
      troveVersion: source.troveVersion,
      schemaVersion: snapshot.schemaVersion,
      createdAt: createdAt.toISOString(),
      tables,
      sequences: snapshot.sequences,
      parts,
      fileCount,
    };
    const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    pack.entry({ name: MANIFEST_ENTRY, size: body.length, mode: 0o600, mtime: new Date(0) }, body);
    pack.finalize();
    await written;
  } catch (error) {
    pack.destroy(error as Error);
    await written.catch(() => undefined);
    throw error;
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
  return manifest;
}

/** Writes a backup to a file, which appears under its name only once whole. */
export async function writeInstanceBackupFile(
  source: InstanceBackupSource,
  file: string,
): Promise<{ manifest: InstanceBackupManifest; size: number }> {
  const partial = `${file}.part`;
  try {
    const manifest = await writeInstanceBackup(source, createWriteStream(partial, { flags: 'wx' }));
    const { size } = await stat(partial);
    await rename(partial, file);
    return { manifest, size };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
