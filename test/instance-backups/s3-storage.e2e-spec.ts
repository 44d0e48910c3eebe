import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreInstanceBackup } from '../../src/operations/instance-backups/instance-backup-reader.js';
import { writeInstanceBackupFile } from '../../src/operations/instance-backups/instance-backup-writer.js';
import { S3Storage } from '../../src/platform/storage/s3.storage.js';
import { attachmentUrl, binary, uploadOk } from '../attachments/attachment-helpers.js';
import { as, createEntity } from '../support/api.js';
import { signUp } from '../support/factories.js';
import { startS3Server, type TestS3Server } from '../storage/s3-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase } from '../support/test-database.js';

describe('an instance backup of a Trove whose files live in S3', () => {
  let s3: TestS3Server;
  let original: TestApp;
  let work: string;
  const bucket = (prefix: string): S3Storage =>
    new S3Storage({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: 'us-east-1',
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
      prefix,
    });

  beforeAll(async () => {
    s3 = await startS3Server();
    work = await mkdtemp(path.join(os.tmpdir(), 'trove-s3-backup-'));
    original = await createTestApp(s3.env('trove-a'));
  });

  afterAll(async () => {
    await original?.close();
    await s3?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('carries the bucket’s files into another prefix, where the restored instance opens them', async () => {
    const owner = await signUp(original, { name: 'Ada' });
    const entity = await createEntity(original, owner, 'Drill');
    const photo = randomBytes(30_000);
    const { attachment } = await uploadOk(original, owner, entity.id, {
      content: photo,
      name: 'drill.bin',
      contentType: 'application/octet-stream',
    });
    const archive = path.join(work, 'backup.tar.gz');
    const source = bucket('trove-a');
    const { manifest } = await writeInstanceBackupFile(
      {
        databaseUrl: original.database.url,
        storage: source,
        troveVersion: original.config.build.version,
      },
      archive,
    );
    source.close();
    expect(manifest.fileCount).toBeGreaterThanOrEqual(1);

    const database = await createTestDatabase({ empty: true });
    const target = bucket('trove-b');
    try {
      await restoreInstanceBackup(archive, { databaseUrl: database.url, storage: target });
      const restored = await createTestApp(s3.env('trove-b'), { database });
      try {
        const file = await as(restored, owner, 'get', attachmentUrl(entity.id, attachment.id))
          .buffer(true)
          .parse(binary)
          .expect(200);
        expect(file.body).toEqual(photo);
      } finally {
        await restored.close();
      }
    } finally {
      target.close();
      await database.drop();
    }
  });
});
