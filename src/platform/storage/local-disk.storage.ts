import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertStorageKey,
  Storage,
  StoredFileNotFoundError,
  type ByteRange,
  type StorageBody,
  type StoredFileInfo,
  type StoredFileStream,
} from './storage.js';

const isMissing = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException).code === 'ENOENT' ||
  (error as NodeJS.ErrnoException).code === 'ENOTDIR';

/** Temporary files older than this are left-overs of a crash, removed at start-up. */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * Files under a directory (`<TROVE_DATA_DIR>/attachments`), one per key. A file is written to
 * `.tmp/` in the same directory tree and renamed into place, so it appears whole or not at all.
 */
export class LocalDiskStorage extends Storage {
  private readonly tempDir: string;

  constructor(private readonly root: string) {
    super();
    this.tempDir = path.join(root, '.tmp');
  }

  /** Creates the directories and removes temporary files a crash left behind. */
  async init(): Promise<void> {
    await mkdir(this.tempDir, { recursive: true });
    const cutoff = Date.now() - STALE_TEMP_MS;
    for (const name of await readdir(this.tempDir)) {
      const file = path.join(this.tempDir, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtimeMs < cutoff) await rm(file, { force: true });
    }
  }

  async put(key: string, body: StorageBody, _contentType: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    await mkdir(this.tempDir, { recursive: true });
    const temp = path.join(this.tempDir, `${randomBytes(12).toString('hex')}.part`);
    try {
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, createWriteStream(temp, { flags: 'wx' }));
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredFileStream> {
    const file = this.pathOf(key);
    const info = await this.head(key);
    if (!info) throw new StoredFileNotFoundError(key);
    const body = createReadStream(file, range ? { start: range.start, end: range.end } : {});
    // Opening can still fail (deleted in between); report it as the stream's error.
    return { ...info, body };
  }

  async head(key: string): Promise<StoredFileInfo | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size, lastModified: info.mtime } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async *keys(): AsyncIterable<string> {
    const walk = async function* (dir: string, prefix: string): AsyncGenerator<string> {
      const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
        if (isMissing(error)) return [];
        throw error;
      });
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (prefix === '' && entry.name === '.tmp') continue;
        const key = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), key);
        else if (entry.isFile()) yield key;
      }
    };
    yield* walk(this.root, '');
  }

  /** The file of a key, which cannot be outside the root. */
  private pathOf(key: string): string {
    assertStorageKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(path.resolve(this.root) + path.sep)) {
      throw new Error(`invalid storage key: ${key}`);
    }
    return file;
  }
}
