import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The configuration variables of a Trove that stores its files there. */
  env(prefix?: string): Record<string, string>;
  stop(): Promise<void>;
}

/** A local S3-compatible server (s3rver) on 127.0.0.1 with one empty bucket. */
export async function startS3Server(bucket = 'trove'): Promise<TestS3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'trove-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver checks signatures against its fixed credentials.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    bucket,
    ...credentials,
    env: (prefix = '') => ({
      TROVE_STORAGE_DRIVER: 's3',
      TROVE_STORAGE_S3_ENDPOINT: endpoint,
      TROVE_STORAGE_S3_BUCKET: bucket,
      TROVE_STORAGE_S3_REGION: 'us-east-1',
      TROVE_STORAGE_S3_ACCESS_KEY_ID: credentials.accessKeyId,
      TROVE_STORAGE_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      TROVE_STORAGE_S3_FORCE_PATH_STYLE: 'true',
      TROVE_STORAGE_S3_PREFIX: prefix,
    }),
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
