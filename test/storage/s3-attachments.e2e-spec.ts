import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../src/platform/storage/s3.storage.js';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  as,
  attachmentUrl,
  binary,
  createEntity,
  jpeg,
  keyOf,
  storedKeys,
  uploadOk,
  waitForThumbnail,
} from '../attachments/attachment-helpers.js';
import { startS3Server, type TestS3Server } from './s3-server.js';

describe('attachments with TROVE_STORAGE_DRIVER=s3', () => {
  let s3: TestS3Server;
  let trove: TestApp;
  let owner: Session;
  let bucket: S3Storage;

  beforeAll(async () => {
    s3 = await startS3Server();
    trove = await createTestApp(s3.env('trove-a'));
    owner = await signUp(trove, { name: 'Ada' });
    bucket = new S3Storage({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: 'us-east-1',
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
      prefix: '',
    });
  });
  afterAll(async () => {
    bucket.close();
    await trove.close();
    await s3.stop();
  });

  it('uploads to the bucket, makes the thumbnail there, downloads whole and by range, deletes', async () => {
    const entity = await createEntity(trove, owner);
    const content = await jpeg(400, 200, 6);

    const { attachment } = await uploadOk(trove, owner, entity.id, { content, name: 'photo.jpg' });

    expect(attachment.path).toBe(keyOf(content, owner.groupId));
    expect((await bucket.head(`trove-a/${attachment.path}`))?.size).toBe(content.length);
    const thumbnail = (await waitForThumbnail(trove, owner, entity.id, attachment.id)).attachment
      .thumbnail!;
    expect((await bucket.head(`trove-a/${thumbnail.path}`))?.size).toBeGreaterThan(0);
    expect(await storedKeys(trove)).toEqual([]);

    const whole = await as(trove, owner, 'get', attachmentUrl(entity.id, attachment.id))
      .buffer(true)
      .parse(binary);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(whole.body as Buffer, content)).toBe(0);
    const part = await as(trove, owner, 'get', attachmentUrl(entity.id, attachment.id))
      .set('Range', 'bytes=2-11')
      .buffer(true)
      .parse(binary);
    expect([part.status, part.headers['content-range']]).toEqual([
      206,
      `bytes 2-11/${content.length}`,
    ]);
    expect(Buffer.compare(part.body as Buffer, content.subarray(2, 12))).toBe(0);
    const small = await as(trove, owner, 'get', attachmentUrl(entity.id, thumbnail.id))
      .buffer(true)
      .parse(binary);
    expect([small.status, small.headers['content-type']]).toEqual([200, 'image/webp']);

    await as(trove, owner, 'delete', attachmentUrl(entity.id, attachment.id)).expect(204);

    expect(await bucket.exists(`trove-a/${attachment.path}`)).toBe(false);
    expect(await bucket.exists(`trove-a/${thumbnail.path}`)).toBe(false);
  });

  // Last: passport keeps one `jwt` strategy per process, so the first app cannot be used after
  // a second one has started.
  it('a second instance with the same bucket and prefix serves the same files', async () => {
    const entity = await createEntity(trove, owner, 'Shared');
    const content = Buffer.from('stored once, readable by every instance');
    const { attachment } = await uploadOk(trove, owner, entity.id, { content, name: 'shared.txt' });
    const second = await createTestApp(s3.env('trove-a'));
    try {
      // The second instance has a database of its own here; point a row of it at the same key.
      const user = await signUp(second, { name: 'Grace' });
      const other = await createEntity(second, user, 'Mirror');
      await second.query(
        `INSERT INTO attachments (entity_id, type, title, path, mime_type)
         VALUES ($1, 'attachment', 'shared.txt', $2, 'text/plain')`,
        [other.id, attachment.path],
      );
      const [row] = await second.query<{ id: string }>(
        'SELECT id FROM attachments WHERE entity_id = $1',
        [other.id],
      );

      const response = await as(second, user, 'get', attachmentUrl(other.id, row.id))
        .buffer(true)
        .parse(binary);

      expect(response.status).toBe(200);
      expect(Buffer.compare(response.body as Buffer, content)).toBe(0);
    } finally {
      await second.close();
    }
  });
});
