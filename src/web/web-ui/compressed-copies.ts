import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
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

/**
 * Compressed copies of the web UI's files that came without a precompressed sibling, each made
 * once, on its first request, per file content (path, size, modification time) and encoding, into
 * a directory of the process's own (removed when it stops), and then served as a sibling is, with
 * its own ETag and ranges. Requests that want a copy being made wait for the same one.
 */
export class CompressedCopies {
  private readonly directory = mkdtempSync(path.join(os.tmpdir(), 'trove-web-ui-'));
  private readonly making = new Map<string, Promise<string>>();

  /** The copy of `file` in `encoding`, made now unless it was before. */
  async of(file: string, encoding: CopyEncoding): Promise<string> {
    const { size, mtimeMs } = await stat(file);
    const name = createHash('sha256')
      .update(`${file}\0${size}\0${mtimeMs}\0${encoding}`)
      .digest('hex');
    const copy = path.join(this.directory, `${name}.${encoding === 'br' ? 'br' : 'gz'}`);
    let made = this.making.get(copy);
    if (!made) {
      made = this.make(file, copy, encoding);
      this.making.set(copy, made);
      // A copy that could not be made is tried again by the next request.
      made.catch(() => this.making.delete(copy));
    }
    return made;
  }

  /** Removes the copies (on shutdown). */
  close(): void {
    rmSync(this.directory, { recursive: true, force: true });
  }

  private async make(file: string, copy: string, encoding: CopyEncoding): Promise<string> {
    const partial = `${copy}.partial`;
    try {
      await pipeline(
        createReadStream(file),
        encoding === 'br' ? createBrotliCompress(BROTLI) : createGzip({ level: 9 }),
        createWriteStream(partial),
      );
      await rename(partial, copy);
      return copy;
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }
}
