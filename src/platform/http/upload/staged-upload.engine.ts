import { createHash, randomBytes, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** An uploaded file as multer hands it to the handler: on local disk, measured and hashed. */
export interface StagedUpload {
  fieldname: string;
  originalname: string;
  /** The temporary file; removed once the upload is handled, whatever the outcome. */
  path: string;
  size: number;
  /** SHA-256 of the content so far, not yet digested (add the group id, then digest). */
  sha256: Hash;
  /** Whether the content is valid UTF-8 without NUL bytes. */
  utf8Text: boolean;
}

type Callback<T> = (error: Error | null, info?: T) => void;

/** Temporary files older than this are left-overs of a crash, removed at start-up. */
const STALE_MS = 60 * 60 * 1000;

/**
 * A multer storage engine that streams each uploaded file to a temporary file under the data
 * directory (not memory, not a possibly RAM-backed /tmp), hashing it and checking whether it is
 * text on the way. multer's `fileSize` limit cuts the stream, and multer then removes the file.
 */
export class StagedUploadEngine {
  constructor(private readonly directory: string) {}

  /** Creates the directory and removes files a crash left behind. */
  async init(): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    const cutoff = Date.now() - STALE_MS;
    for (const name of await readdir(this.directory)) {
      const file = path.join(this.directory, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtimeMs < cutoff) await rm(file, { force: true });
    }
  }

  _handleFile(
    _request: unknown,
    file: { stream: Readable },
    callback: Callback<Omit<StagedUpload, 'fieldname' | 'originalname'>>,
  ): void {
    const target = path.join(this.directory, `${randomBytes(12).toString('hex')}.upload`);
    const sha256 = createHash('sha256');
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let utf8Text = true;
    let size = 0;
    const inspect = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sha256.update(chunk);
        size += chunk.length;
        if (utf8Text) {
          try {
            if (chunk.includes(0)) utf8Text = false;
            else decoder.decode(chunk, { stream: true });
          } catch {
            utf8Text = false;
          }
        }
        done(null, chunk);
      },
    });
    const output = createWriteStream(target, { flags: 'wx' });
    pipeline(file.stream, inspect, output).then(
      () => {
        if (utf8Text) {
          try {
            decoder.decode();
          } catch {
            utf8Text = false;
          }
        }
        callback(null, { path: target, size, sha256, utf8Text });
      },
      (error: Error) => {
        // A stream cut while the file is still being opened creates it once the open completes,
        // so the file is removed only after the stream has closed.
        const remove = (): void => {
          rm(target, { force: true }).then(
            () => callback(error),
            () => callback(error),
          );
        };
        if (output.closed) remove();
        else output.once('close', remove);
      },
    );
  }

  _removeFile(
    _request: unknown,
    file: { path?: string },
    callback: (error: Error | null) => void,
  ): void {
    if (!file.path) {
      callback(null);
      return;
    }
    rm(file.path, { force: true }).then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }
}
