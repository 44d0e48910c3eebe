import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip, type BrotliOptions } from 'node:zlib';

/** The encodings a copy is made in, in the order Trove prefers them. */
export type CopyEncoding = 'br' | 'gzip';

/** Smaller files are sent as they are: compressing them saves less than its headers cost. */
export const MIN_COMPRESSED_BYTES = 1024;

/** Brotli at 9: close to its best ratio on scripts and styles, many times faster than 11. */
const BROTLI: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } };

/** A change made to a text file as it is served, named so that its copies are kept apart. */
export interface TextEdit {
  name: string;
  apply(text: string): string;
}

/**
 * Copies of the web UI's files made as they are served, never in the directory itself: a
 * compressed copy of a file that came without a precompressed sibling, or a text file with an
 * edit applied (the entry page with the console's link). Each is made once, on its first request,
 * per file content (path, size, modification time) and kind, into a directory of the process's
 * own (removed when it stops), and then served as a sibling is, with its own ETag and ranges.
 * Requests that want a copy being made wait for the same one.
 */
export class FileCopies {
  private readonly directory = mkdtempSync(path.join(os.tmpdir(), 'trove-web-ui-'));
  private readonly making = new Map<string, Promise<string>>();

  /** The copy of `file` in `encoding`, made now unless it was before. */
  compressed(file: string, encoding: CopyEncoding): Promise<string> {
    return this.copy(file, encoding, encoding === 'br' ? 'br' : 'gz', (partial) =>
      pipeline(
        createReadStream(file),
        encoding === 'br' ? createBrotliCompress(BROTLI) : createGzip({ level: 9 }),
        createWriteStream(partial),
      ),
    );
  }

  /** The copy of the text file `file` with `edit` applied, made now unless it was before. */
  edited(file: string, edit: TextEdit): Promise<string> {
    return this.copy(file, `edit:${edit.name}`, path.extname(file).slice(1), async (partial) => {
      await writeFile(partial, edit.apply(await readFile(file, 'utf8')));
    });
  }

  /** Removes the copies (on shutdown). */
  close(): void {
    rmSync(this.directory, { recursive: true, force: true });
  }

  private async copy(
    file: string,
    kind: string,
    suffix: string,
    write: (partial: string) => Promise<void>,
  ): Promise<string> {
    const { size, mtimeMs } = await stat(file);
    const name = createHash('sha256').update(`${file}\0${size}\0${mtimeMs}\0${kind}`).digest('hex');
    const copy = path.join(this.directory, `${name}.${suffix}`);
    let made = this.making.get(copy);
    if (!made) {
      made = this.make(copy, write);
      this.making.set(copy, made);
      // A copy that could not be made is tried again by the next request.
      made.catch(() => this.making.delete(copy));
    }
    return made;
  }

  private async make(copy: string, write: (partial: string) => Promise<void>): Promise<string> {
    const partial = `${copy}.partial`;
    try {
      await write(partial);
      await rename(partial, copy);
      return copy;
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }
}
