import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import type { BackupEncryptionSettings } from '../../platform/config/configuration.js';
import {
  createScratchDatabase,
  DatabaseLoad,
  dropScratchDatabase,
  knownSchemaVersions,
  RestoreTargetRefused,
} from '../../platform/database/database-copy.js';
import { migrateDatabase } from '../../platform/database/migrate.js';
import { installJobQueue } from '../../platform/jobs/job-queue-schema.js';
import type { Storage } from '../../platform/storage/storage.js';
import {
  FILES_PREFIX,
  INSTANCE_BACKUP_FORMAT,
  INSTANCE_BACKUP_FORMAT_VERSION,
  InstanceBackupRefused,
  MANIFEST_ENTRY,
  TABLES_PREFIX,
  type InstanceBackupManifest,
} from './instance-backup-format.js';
import { decryptingStream, isEncrypted } from './instance-backup-encryption.js';

type EntryVisitor = (name: string, body: Readable) => Promise<void>;

/** Reads the archive's entries in order; a damaged, cut or undecryptable archive is refused. */
async function readEntries(
  file: string,
  encryption: BackupEncryptionSettings | null,
  visit: EntryVisitor,
): Promise<void> {
  const extract = tar.extract();
  const raw = createReadStream(file);
  await new Promise<void>((resolve, reject) => {
    raw.once('open', () => resolve()).once('error', reject);
  });
  const source = (await isEncrypted(file)) ? await decryptingStream(raw, encryption) : raw;
  const gunzip = createGunzip();
  const failed = new Promise<never>((_resolve, reject) => {
    const refuse = (error: Error): void =>
      reject(
        error instanceof InstanceBackupRefused
          ? error
          : new InstanceBackupRefused(
              `the archive is truncated or damaged (${error.message}); nothing was restored`,
            ),
      );
    // The file's own errors (unreadable) are not the archive's.
    raw.on('error', reject);
    if (source !== raw) source.on('error', refuse);
    gunzip.on('error', refuse);
    extract.on('error', refuse);
  });
  failed.catch(() => undefined);
  source.pipe(gunzip).pipe(extract);
  const entries = (async () => {
    for await (const entry of extract) {
      if (entry.header.type !== 'file') {
        entry.resume();
        continue;
      }
      await visit(entry.header.name, entry as unknown as Readable);
    }
  })();
  await Promise.race([entries, failed]);
  // The gzip stream may only now report a damaged trailer.
  await Promise.race([
    new Promise<void>((resolve) => {
      if (gunzip.readableEnded || gunzip.destroyed) resolve();
      else gunzip.once('end', resolve).once('close', resolve);
    }),
    failed,
  ]);
}

async function digestOf(body: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * Reads the whole archive and checks it against its manifest: every entry present once with its
 * size and sha256, nothing more, a format and schema version this Trove can restore. Returns the
 * manifest; throws `InstanceBackupRefused` saying what is wrong.
 */
export async function checkInstanceBackup(
  file: string,
  encryption: BackupEncryptionSettings | null = null,
): Promise<InstanceBackupManifest> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifestText: string | undefined;
  await readEntries(file, encryption, async (name, body) => {
    if (name === MANIFEST_ENTRY) {
      const chunks: Buffer[] = [];
      for await (const chunk of body) chunks.push(chunk as Buffer);
      manifestText = Buffer.concat(chunks).toString('utf8');
      return;
    }
    if (seen.has(name)) throw new InstanceBackupRefused(`the archive holds ${name} twice`);
    seen.set(name, await digestOf(body));
  });
  if (manifestText === undefined) {
    throw new InstanceBackupRefused('the archive has no manifest: it is not a whole Trove backup');
  }
  let manifest: InstanceBackupManifest;
  try {
    manifest = JSON.parse(manifestText) as InstanceBackupManifest;
  } catch {
    throw new InstanceBackupRefused('the archive’s manifest is not valid JSON');
  }
  if (manifest.format !== INSTANCE_BACKUP_FORMAT) {
    throw new InstanceBackupRefused('the archive is not a Trove instance backup');
  }
  if (manifest.formatVersion > INSTANCE_BACKUP_FORMAT_VERSION) {
    throw new InstanceBackupRefused(
      `the archive was written by a newer Trove (${manifest.troveVersion}, backup format ${manifest.formatVersion}); upgrade Trove to restore it`,
    );
  }
  if (!knownSchemaVersions().includes(manifest.schemaVersion)) {
    throw new InstanceBackupRefused(
      `the archive comes from a newer Trove (${manifest.troveVersion}, schema ${manifest.schemaVersion}) than this one; upgrade Trove to restore it`,
    );
  }
  for (const part of manifest.parts) {
    const found = seen.get(part.name);
    if (!found) throw new InstanceBackupRefused(`the archive lacks ${part.name}`);
    if (found.size !== part.size || found.sha256 !== part.sha256) {
      throw new InstanceBackupRefused(
        `${part.name} does not match its checksum in the manifest: the archive was changed or damaged`,
      );
    }
    seen.delete(part.name);
  }
  if (seen.size > 0) {
    throw new InstanceBackupRefused(
      `the archive holds ${[...seen.keys()][0]}, which its manifest does not list`,
    );
  }
  return manifest;
}

export interface RestoreTarget {
  databaseUrl: string;
  /** Where the files go; none for a rehearsal, which checks them by checksum only. */
  storage?: Storage;
}

/**
 * Restores a checked archive into an empty database (and empty storage): the schema at the
 * archive's version, every table in one transaction, row counts compared with the manifest,
 * then the files, then the migrations this Trove has beyond the archive's. All or nothing:
 * on a failure the database is emptied again and the files written are deleted.
 */
async function loadArchive(
  file: string,
  manifest: InstanceBackupManifest,
  target: RestoreTarget,
  encryption: BackupEncryptionSettings | null,
): Promise<void> {
  if (target.storage) {
    for await (const key of target.storage.keys()) {
      throw new RestoreTargetRefused(
        `the target storage is not empty (it holds ${key}); restore into an empty data directory or bucket`,
      );
    }
  }
  const load = await DatabaseLoad.open(target.databaseUrl);
  const written: string[] = [];
  try {
    await load.migrateTo(target.databaseUrl, manifest.schemaVersion);
    await load.begin();
    let committed = false;
    const finishTables = async (): Promise<void> => {
      if (committed) return;
      const tables = Object.keys(manifest.tables);
      const counts = await load.countRows(tables);
      for (const table of tables) {
        if (counts[table] !== manifest.tables[table]) {
          throw new Error(
            `table ${table} has ${counts[table]} rows after loading, the manifest says ${manifest.tables[table]}`,
          );
        }
      }
      await load.setSequences(manifest.sequences);
      await load.commit();
      committed = true;
    };
    await readEntries(file, encryption, async (name, body) => {
      if (name.startsWith(TABLES_PREFIX)) {
        await load.copyIn(name.slice(TABLES_PREFIX.length, -'.copy'.length), body);
        return;
      }
      await finishTables();
      if (name.startsWith(FILES_PREFIX) && target.storage) {
        const key = name.slice(FILES_PREFIX.length);
        written.push(key);
        await target.storage.put(key, body, 'application/octet-stream');
        return;
      }
      body.resume();
      await new Promise((resolve) => body.once('end', resolve));
    });
    await finishTables();
  } catch (error) {
    await load.abandon();
    for (const key of written) await target.storage?.delete(key);
    throw error;
  } finally {
    await load.close();
  }
}

/**
 * Checks the archive whole, then restores it; returns its manifest. An encrypted archive needs
 * the passphrase or key it was written with.
 */
export async function restoreInstanceBackup(
  file: string,
  target: RestoreTarget,
  encryption: BackupEncryptionSettings | null = null,
): Promise<InstanceBackupManifest> {
  const manifest = await checkInstanceBackup(file, encryption);
  await loadArchive(file, manifest, target, encryption);
  await migrateDatabase(target.databaseUrl);
  await installJobQueue(target.databaseUrl);
  return manifest;
}

/**
 * A rehearsed restore: checks the archive, loads it into a scratch database beside
 * `databaseUrl`, compares its rows with the manifest, and drops it.
 */
export async function verifyInstanceBackup(
  file: string,
  databaseUrl: string,
  encryption: BackupEncryptionSettings | null = null,
): Promise<InstanceBackupManifest> {
  const manifest = await checkInstanceBackup(file, encryption);
  const name = `trove_verify_${randomBytes(6).toString('hex')}`;
  const scratch = await createScratchDatabase(databaseUrl, name);
  try {
    await loadArchive(file, manifest, { databaseUrl: scratch }, encryption);
  } finally {
    await dropScratchDatabase(databaseUrl, name);
  }
  return manifest;
}
