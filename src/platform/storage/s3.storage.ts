import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { TroveConfig } from '../config/configuration.js';
import {
  assertStorageKey,
  Storage,
  StoredFileNotFoundError,
  type ByteRange,
  type StorageBody,
  type StoredFileInfo,
  type StoredFileStream,
} from './storage.js';

/** Size of the parts of a multipart upload (S3 wants at least 5 MiB but the last). */
export const S3_PART_SIZE = 8 * 1024 * 1024;

const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.$metadata.httpStatusCode === 404 ||
    error.name === 'NoSuchKey' ||
    error.name === 'NotFound');

/**
 * Files in a bucket of an S3-compatible store (AWS, MinIO, Garage, Ceph, ...), under an optional
 * key prefix, so that several Trove instances can share them. A stream is sent in parts of
 * `S3_PART_SIZE` (one PutObject when it is smaller), so memory stays bounded whatever its size.
 */
export class S3Storage extends Storage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(settings: TroveConfig['storage']['s3']) {
    super();
    this.bucket = settings.bucket;
    this.prefix = settings.prefix.replace(/^\/+|\/+$/g, '');
    this.client = new S3Client({
      endpoint: settings.endpoint || undefined,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.accessKeyId
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
      // Newer SDKs add CRC checksums to every request by default, which several S3-compatible
      // servers reject; send them only where the API requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: StorageBody, contentType: string): Promise<void> {
    const Key = this.objectKey(key);
    if (Buffer.isBuffer(body)) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentType: contentType }),
      );
      return;
    }
    const chunks = partsOf(body);
    const first = await chunks.next();
    const firstPart = first.done ? Buffer.alloc(0) : first.value;
    if (firstPart.length < S3_PART_SIZE) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: firstPart,
          ContentType: contentType,
        }),
      );
      return;
    }
    const { UploadId } = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key, ContentType: contentType }),
    );
    try {
      const parts: CompletedPart[] = [];
      let part: Buffer | undefined = firstPart;
      while (part) {
        const PartNumber = parts.length + 1;
        const { ETag } = await this.client.send(
          new UploadPartCommand({ Bucket: this.bucket, Key, UploadId, PartNumber, Body: part }),
        );
        parts.push({ ETag, PartNumber });
        const next = await chunks.next();
        part = next.done ? undefined : next.value;
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId }))
        .catch(() => undefined);
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredFileStream> {
    try {
      const output = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const total = /\/(\d+)$/.exec(output.ContentRange ?? '')?.[1];
      return {
        body: output.Body as Readable,
        size: total !== undefined ? Number(total) : (output.ContentLength ?? 0),
        lastModified: output.LastModified ?? new Date(0),
      };
    } catch (error) {
      if (isNotFound(error)) throw new StoredFileNotFoundError(key);
      throw error;
    }
  }

  async head(key: string): Promise<StoredFileInfo | null> {
    try {
      const output = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return { size: output.ContentLength ?? 0, lastModified: output.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
    );
  }

  async *keys(): AsyncIterable<string> {
    const prefix = this.prefix ? `${this.prefix}/` : '';
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) yield object.Key.slice(prefix.length);
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  /** Closes the client's connections. */
  override close(): void {
    this.client.destroy();
  }

  private objectKey(key: string): string {
    assertStorageKey(key);
    return this.prefix ? `${this.prefix}/${key}` : key;
  }
}

/** Cuts a stream into buffers of `S3_PART_SIZE` bytes (the last one shorter). */
async function* partsOf(stream: Readable): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  let yielded = false;
  for await (const chunk of stream) {
    let data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    while (length + data.length >= S3_PART_SIZE) {
      const take = S3_PART_SIZE - length;
      pending.push(data.subarray(0, take));
      yield Buffer.concat(pending);
      yielded = true;
      data = data.subarray(take);
      pending = [];
      length = 0;
    }
    if (data.length > 0) {
      pending.push(data);
      length += data.length;
    }
  }
  if (length > 0 || !yielded) yield Buffer.concat(pending);
}
