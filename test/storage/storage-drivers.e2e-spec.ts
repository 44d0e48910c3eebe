import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from '../../src/platform/storage/local-disk.storage.js';
import { S3_PART_SIZE, S3Storage } from '../../src/platform/storage/s3.storage.js';
import { StoredFileNotFoundError, type Storage } from '../../src/platform/storage/storage.js';
import { startS3Server, type TestS3Server } from './s3-server.js';

const read = async (stream: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** A stream of `bytes` in chunks of an awkward size, as an upload arrives. */
const streamOf = (bytes: Buffer, chunk = 65_521): Readable =>
  Readable.from(
    (function* () {
      for (let offset = 0; offset < bytes.length; offset += chunk) {
        yield bytes.subarray(offset, offset + chunk);
      }
    })(),
  );

const key = (): string =>
  `group-${randomBytes(4).toString('hex')}/documents/${randomBytes(32).toString('hex')}`;

/** The same round trip for every driver: put, get whole and ranges, head, exists, delete. */
function roundTrip(name: string, open: () => Storage) {
  describe(`${name}: round trip`, () => {
    it('stores bytes and reads them back whole and by range', async () => {
      const storage = open();
      const k = key();
      const bytes = Buffer.from('0123456789abcdefghij');
      const before = Date.now();

      await storage.put(k, bytes, 'text/plain');

      const whole = await storage.get(k);
      expect(whole.size).toBe(20);
      expect((await read(whole.body)).toString()).toBe('0123456789abcdefghij');
      const middle = await storage.get(k, { start: 5, end: 9 });
      expect(middle.size).toBe(20);
      expect((await read(middle.body)).toString()).toBe('56789');
      const last = await storage.get(k, { start: 19, end: 19 });
      expect((await read(last.body)).toString()).toBe('j');
      const head = await storage.head(k);
      expect(head?.size).toBe(20);
      expect(head!.lastModified.getTime()).toBeGreaterThan(before - 5_000);
      expect(await storage.exists(k)).toBe(true);

      await storage.delete(k);

      expect(await storage.head(k)).toBeNull();
      expect(await storage.exists(k)).toBe(false);
      await expect(storage.get(k)).rejects.toBeInstanceOf(StoredFileNotFoundError);
      await expect(storage.delete(k)).resolves.toBeUndefined();
    });

    it('stores a stream larger than one S3 part, and an empty one', async () => {
      const storage = open();
      const big = key();
      const empty = key();
      const bytes = randomBytes(S3_PART_SIZE + 12_345);

      await storage.put(big, streamOf(bytes), 'application/octet-stream');
      await storage.put(empty, Readable.from([]), 'application/octet-stream');

      expect((await storage.head(big))?.size).toBe(bytes.length);
      expect(Buffer.compare(await read((await storage.get(big)).body), bytes)).toBe(0);
      const tail = await storage.get(big, { start: S3_PART_SIZE - 2, end: S3_PART_SIZE + 1 });
      expect(
        Buffer.compare(await read(tail.body), bytes.subarray(S3_PART_SIZE - 2, S3_PART_SIZE + 2)),
      ).toBe(0);
      expect((await storage.head(empty))?.size).toBe(0);
      expect((await read((await storage.get(empty)).body)).length).toBe(0);
    });

    it('replaces a file put twice under one key', async () => {
      const storage = open();
      const k = key();
      await storage.put(k, Buffer.from('first'), 'text/plain');
      await storage.put(k, streamOf(Buffer.from('second')), 'text/plain');
      expect((await read((await storage.get(k)).body)).toString()).toBe('second');
    });

    it('refuses keys that could leave the root', async () => {
      const storage = open();
      for (const bad of [
        '../escape',
        'a/../../b',
        '/absolute',
        'a//b',
        'a\\b',
        '',
        '.hidden/x',
        'a/./b',
      ]) {
        await expect(storage.put(bad, Buffer.from('x'), 'text/plain'), bad).rejects.toThrow(
          /invalid storage key/,
        );
        await expect(storage.head(bad), bad).rejects.toThrow(/invalid storage key/);
      }
    });
  });
}

describe('storage drivers', () => {
  let s3: TestS3Server;
  let root: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    root = await mkdtemp(path.join(os.tmpdir(), 'trove-local-storage-'));
  });
  afterAll(async () => {
    await s3.stop();
    await rm(root, { recursive: true, force: true });
  });

  const s3Settings = (prefix: string) => ({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: 'us-east-1',
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
    prefix,
  });

  roundTrip('s3 (s3rver)', () => new S3Storage(s3Settings('/shared/trove/')));
  roundTrip('local disk', () => new LocalDiskStorage(root));

  describe('s3 specifics', () => {
    it('keeps objects under the prefix, with their content type', async () => {
      const storage = new S3Storage(s3Settings('instances/shared'));
      const bare = new S3Storage(s3Settings(''));
      const client = new S3Client({
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      });
      const k = key();

      await storage.put(k, Buffer.from('<html></html>'), 'text/html');

      expect(await bare.exists(k)).toBe(false);
      expect((await bare.head(`instances/shared/${k}`))?.size).toBe(13);
      const head = await client.send(
        new HeadObjectCommand({ Bucket: s3.bucket, Key: `instances/shared/${k}` }),
      );
      expect(head.ContentType).toBe('text/html');
      client.destroy();
      storage.close();
      bare.close();
    });

    it('reports a store it cannot reach as an error, not as a missing file', async () => {
      const storage = new S3Storage({ ...s3Settings(''), endpoint: 'http://127.0.0.1:1' });
      await expect(storage.head(key())).rejects.toThrow();
      storage.close();
    });
  });

  describe('local disk specifics', () => {
    it('writes through a temporary file and leaves none behind, and removes stale ones at start', async () => {
      const storage = new LocalDiskStorage(root);
      await storage.init();
      const stale = path.join(root, '.tmp', 'crashed.part');
      const fresh = path.join(root, '.tmp', 'in-flight.part');
      await writeFile(stale, 'x');
      await writeFile(fresh, 'y');
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await utimes(stale, twoHoursAgo, twoHoursAgo);

      await storage.put(key(), streamOf(randomBytes(100_000)), 'application/octet-stream');
      await new LocalDiskStorage(root).init();

      expect(await readdir(path.join(root, '.tmp'))).toEqual(['in-flight.part']);
    });

    it('removes the temporary file when the source fails', async () => {
      const storage = new LocalDiskStorage(root);
      await rm(path.join(root, '.tmp'), { recursive: true, force: true });
      const failing = new Readable({
        read() {
          this.destroy(new Error('client went away'));
        },
      });

      await expect(storage.put(key(), failing, 'text/plain')).rejects.toThrow('client went away');

      expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
    });
  });
});
