import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { startS3Server, type TestS3Server } from '../storage/s3-server.js';
import { as, attachmentUrl, binary, createEntity, uploadOk } from './attachment-helpers.js';

const SIZE = 10 * 1024 * 1024;
const MB = 1024 * 1024;

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** Uploads and downloads 10 MB once and reports MB/s (MiB per second) on standard output. */
async function measure(trove: TestApp, session: Session, label: string): Promise<void> {
  const entity = await createEntity(trove, session, `Throughput ${label}`);
  const content = randomBytes(SIZE);

  const uploadStart = performance.now();
  const { attachment } = await uploadOk(trove, session, entity.id, { content, name: 'big.bin' });
  const uploadSeconds = (performance.now() - uploadStart) / 1000;

  const downloadStart = performance.now();
  const response = await as(trove, session, 'get', attachmentUrl(entity.id, attachment.id))
    .buffer(true)
    .parse(binary);
  const downloadSeconds = (performance.now() - downloadStart) / 1000;

  expect(response.status).toBe(200);
  expect(sha256(response.body as Buffer)).toBe(sha256(content));
  const rate = (seconds: number): string => (SIZE / MB / seconds).toFixed(1);
  console.log(
    `[throughput] ${label}: 10 MiB upload ${rate(uploadSeconds)} MB/s ` +
      `(${(uploadSeconds * 1000).toFixed(0)} ms), download ${rate(downloadSeconds)} MB/s ` +
      `(${(downloadSeconds * 1000).toFixed(0)} ms)`,
  );
}

describe('10 MB upload and download', () => {
  let s3: TestS3Server;

  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(() => s3.stop());

  // One app at a time: passport keeps one `jwt` strategy per process, the last app's.
  it('round-trips through the local driver', async () => {
    const trove = await createTestApp({ TROVE_WEB_MAX_UPLOAD_SIZE: '10' });
    try {
      await measure(trove, await signUp(trove), 'local');
    } finally {
      await trove.close();
    }
  });

  it('round-trips through the s3 driver (s3rver)', async () => {
    const trove = await createTestApp({ TROVE_WEB_MAX_UPLOAD_SIZE: '10', ...s3.env() });
    try {
      await measure(trove, await signUp(trove), 's3');
    } finally {
      await trove.close();
    }
  });
});
