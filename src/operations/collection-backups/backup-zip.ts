import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';
import { onFirstUse } from '../../platform/runtime/on-first-use.js';
import { BackupFormatError } from './backup-format.js';
import { parseJsonArray } from './json-array-stream.js';

/** The zip reader, imported with the first backup read. */
const yauzlModule = onFirstUse(async () => (await import('yauzl')).default);

/** A zip may expand to at most this many times its own size. */
export const MAX_EXPANSION_RATIO = 100;

/** Largest JSON document read whole (the manifest). */
const MAX_DOCUMENT_BYTES = 1024 * 1024;

/**
 * Refuses an entry name that could leave the folder it is extracted to or that a reader could
 * take for something else: absolute paths, drive letters, backslashes, `.`/`..` segments,
 * control characters.
 */
export function assertSafeEntryName(name: string): void {
  const segments = name.replace(/\/$/, '').split('/');
  if (
    name.length === 0 ||
    name.startsWith('/') ||
    name.includes('\\') ||
    /^[A-Za-z]:/.test(name) ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f]/.test(name) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..')
  ) {
    throw new BackupFormatError(
      `zip entry ${JSON.stringify(name.slice(0, 200))} is not a safe relative path`,
    );
  }
}

/**
 * A zip on local disk opened for reading by entry name, checked when opened: it must be a zip,
 * every entry name a safe relative path, and its entries together no larger than
 * MAX_EXPANSION_RATIO times the zip (yauzl also checks, while reading, that no entry inflates past
 * the size it declares). Entries are read as streams, each as often as needed.
 */
export class BackupZip {
  private constructor(
    private readonly zip: ZipFile,
    private readonly entries: Map<string, Entry>,
    /** Size of the zip file in bytes. */
    readonly size: number,
    /** Sum of the entries' uncompressed sizes. */
    readonly expandedSize: number,
  ) {}

  static async open(path: string): Promise<BackupZip> {
    const size = (await stat(path)).size;
    const yauzl = await yauzlModule();
    let zip: ZipFile;
    try {
      zip = await yauzl.openPromise(path, {
        lazyEntries: true,
        autoClose: false,
        strictFileNames: true,
        validateEntrySizes: true,
      });
    } catch {
      throw new BackupFormatError('the file is not a zip archive');
    }
    try {
      const entries = new Map<string, Entry>();
      let expanded = 0;
      for await (const entry of readEntries(zip)) {
        assertSafeEntryName(entry.fileName);
        if (entry.isEncrypted()) {
          throw new BackupFormatError(`zip entry ${entry.fileName} is encrypted`);
        }
        expanded += entry.uncompressedSize;
        if (expanded > MAX_EXPANSION_RATIO * size) {
          throw new BackupFormatError(
            `the zip expands to more than ${MAX_EXPANSION_RATIO} times its size`,
          );
        }
        if (entries.has(entry.fileName)) {
          throw new BackupFormatError(`zip entry ${entry.fileName} appears twice`);
        }
        if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
      }
      return new BackupZip(zip, entries, size, expanded);
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Names of the file entries (not folders). */
  names(): IterableIterator<string> {
    return this.entries.keys();
  }

  /** Uncompressed size of an entry, or undefined when there is none. */
  entrySize(name: string): number | undefined {
    return this.entries.get(name)?.uncompressedSize;
  }

  /** The entry's bytes; `BackupFormatError` when there is no such entry. */
  async open(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new BackupFormatError(`the zip has no entry ${name}`);
    try {
      return await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw new BackupFormatError(
        `zip entry ${name} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** A small JSON document read whole (at most 1 MB). */
  async readJson(name: string): Promise<unknown> {
    const size = this.entrySize(name);
    if (size === undefined) throw new BackupFormatError(`the zip has no ${name}`);
    if (size > MAX_DOCUMENT_BYTES) throw new BackupFormatError(`${name} is larger than 1 MB`);
    const chunks: Buffer[] = [];
    for await (const chunk of await this.open(name)) chunks.push(chunk as Buffer);
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      throw new BackupFormatError(`${name} is not valid JSON`);
    }
  }

  /** The elements of a JSON array entry, streamed; nothing when there is no such entry. */
  async *readJsonArray(name: string): AsyncGenerator<unknown> {
    if (!this.has(name)) return;
    yield* parseJsonArray(await this.open(name), name);
  }

  close(): Promise<void> {
    this.zip.close();
    return Promise.resolve();
  }
}

/** The zip's central directory entries, one at a time. */
async function* readEntries(zip: ZipFile): AsyncGenerator<Entry> {
  for (;;) {
    const next = await new Promise<Entry | null>((resolve, reject) => {
      const onEntry = (entry: Entry): void => {
        cleanup();
        resolve(entry);
      };
      const onEnd = (): void => {
        cleanup();
        resolve(null);
      };
      const onError = (error: Error): void => {
        cleanup();
        reject(
          /relative path|absolute path|invalid characters/i.test(error.message)
            ? new BackupFormatError(`a zip entry name is not a safe relative path`)
            : new BackupFormatError(`the zip archive is damaged: ${error.message}`),
        );
      };
      const cleanup = (): void => {
        zip.off('entry', onEntry);
        zip.off('end', onEnd);
        zip.off('error', onError);
      };
      zip.on('entry', onEntry);
      zip.on('end', onEnd);
      zip.on('error', onError);
      zip.readEntry();
    });
    if (next === null) return;
    yield next;
  }
}
