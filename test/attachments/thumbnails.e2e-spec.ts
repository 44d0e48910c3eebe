import { rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  as,
  attachmentRows,
  attachmentUrl,
  BAD_TOKEN,
  binary,
  createEntity,
  FORGED_TOKEN,
  getEntity,
  jpeg,
  NO_TOKEN,
  png,
  STORED_KEYS,
  storedKeys,
  uploadOk,
  validation,
  VIEWER_ONLY_READS,
  waitForThumbnail,
} from './attachment-helpers.js';

const CREATE_MISSING = '/api/v1/actions/create-missing-thumbnails';

/** Width, height and the colour at two points (as fractions of the size) of an image. */
async function inspect(image: Buffer, points: [number, number][]) {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const colour = ([fx, fy]: [number, number]): string => {
    const offset = (Math.floor(fy * info.height) * info.width + Math.floor(fx * info.width)) * 3;
    const [r, g, b] = data.subarray(offset, offset + 3);
    if (r > 200 && g < 60 && b < 60) return 'red';
    if (b > 200 && r < 60 && g < 60) return 'blue';
    return `rgb(${r},${g},${b})`;
  };
  return {
    format: (await sharp(image).metadata()).format,
    width: info.width,
    height: info.height,
    colours: points.map(colour),
  };
}

describe('thumbnails', () => {
  let trove: TestApp;
  let owner: Session;
  let viewer: Session;
  let outsider: Session;

  beforeAll(async () => {
    // A box of 200 × 100 so that both limits are seen to apply.
    trove = await createTestApp({ TROVE_THUMBNAIL_WIDTH: '200', TROVE_THUMBNAIL_HEIGHT: '100' });
    owner = await signUp(trove, { name: 'Ada' });
    viewer = await signUpMember(trove, owner, 'viewer');
    outsider = await signUp(trove, { name: 'Eve' });
  });
  afterAll(() => trove.close());

  const download = (session: Session, entityId: string, id: string) =>
    as(trove, session, 'get', attachmentUrl(entityId, id)).buffer(true).parse(binary);

  describe('success', () => {
    it('makes an upright WebP thumbnail of a JPEG after the upload, shown on the photo and entity', async () => {
      const entity = await createEntity(trove, owner);
      // Stored 1200 × 600, left half red; EXIF orientation 6 shows it 600 × 1200, red on top.
      const content = await jpeg(1200, 600, 6);

      const uploaded = await uploadOk(trove, owner, entity.id, { content, name: 'tall.jpg' });
      expect(uploaded.attachment.type).toBe('photo');
      const { attachment, entity: after } = await waitForThumbnail(
        trove,
        owner,
        entity.id,
        uploaded.attachment.id,
      );

      const thumbnail = attachment.thumbnail!;
      expect(Object.keys(thumbnail).sort()).toEqual(STORED_KEYS);
      expect(thumbnail).toEqual({
        id: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        mime_type: 'image/webp',
        path: expect.stringMatching(new RegExp(`^${owner.groupId}/documents/[0-9a-f]{64}$`)),
        primary: false,
        title: 'tall.jpg-thumb',
        type: 'thumbnail',
        edges: {},
      });
      expect(after.imageId).toBe(attachment.id);
      expect(after.thumbnailId).toBe(thumbnail.id);
      expect(after.attachments.map((item) => item.id)).toEqual([attachment.id]);

      const response = await download(owner, entity.id, thumbnail.id);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['content-disposition']).toBe(
        "inline; filename*=UTF-8''tall.jpg-thumb",
      );
      expect(
        await inspect(response.body as Buffer, [
          [0.5, 0.1],
          [0.5, 0.9],
        ]),
      ).toEqual({
        format: 'webp',
        width: 50,
        height: 100,
        colours: ['red', 'blue'],
      });
    });

    it('makes one of a PNG, within the box and never enlarged', async () => {
      const entity = await createEntity(trove, owner);
      const wide = await uploadOk(trove, owner, entity.id, {
        content: await png(800, 300),
        name: 'wide.png',
      });
      const small = await uploadOk(trove, owner, entity.id, {
        content: await png(40, 30),
        name: 'small.png',
      });

      const wideThumb = (await waitForThumbnail(trove, owner, entity.id, wide.attachment.id))
        .attachment.thumbnail!;
      const smallThumb = (await waitForThumbnail(trove, owner, entity.id, small.attachment.id))
        .attachment.thumbnail!;

      const wideImage = await download(owner, entity.id, wideThumb.id);
      const smallImage = await download(owner, entity.id, smallThumb.id);
      expect(await sharp(wideImage.body as Buffer).metadata()).toMatchObject({
        format: 'webp',
        width: 200,
        height: 75,
      });
      expect(await sharp(smallImage.body as Buffer).metadata()).toMatchObject({
        format: 'webp',
        width: 40,
        height: 30,
      });
    });

    it('makes none for a photo that is not an image, and create-missing-thumbnails skips it', async () => {
      const entity = await createEntity(trove, owner, 'Fakes');
      const html = await uploadOk(trove, owner, entity.id, {
        content: Buffer.from('<html><script>alert(1)</script></html>'),
        name: 'fake.jpg',
      });
      await uploadOk(trove, owner, entity.id, {
        content: Buffer.from('%PDF-1.4\n%%EOF\n'),
        name: 'doc.pdf',
        type: 'photo',
      });

      const response = await as(trove, owner, 'post', CREATE_MISSING);

      expect([response.status, response.body]).toEqual([200, { completed: 0 }]);
      expect(html.attachment.mimeType).toBe('text/html');
      const rows = await attachmentRows(trove, entity.id);
      expect(rows.map((row) => row.type)).toEqual(['photo', 'photo']);
    });

    it('create-missing-thumbnails makes the missing ones of the group now, and logs bad images', async () => {
      const entity = await createEntity(trove, owner, 'Backfill');
      const theirs = await createEntity(trove, outsider, 'Theirs');
      const photo = await uploadOk(trove, owner, entity.id, {
        content: await jpeg(300, 100),
        name: 'p.jpg',
      });
      const foreign = await uploadOk(trove, outsider, theirs.id, {
        content: await jpeg(30, 10),
        name: 'f.jpg',
      });
      const first = await waitForThumbnail(trove, owner, entity.id, photo.attachment.id);
      await waitForThumbnail(trove, outsider, theirs.id, foreign.attachment.id);
      const truncated = (await jpeg(300, 300)).subarray(0, 400);
      const broken = await uploadOk(trove, owner, entity.id, {
        content: truncated,
        name: 'broken.jpg',
      });
      expect(broken.attachment.mimeType).toBe('image/jpeg');
      // Lose the thumbnails, as if the process had stopped before making them.
      await trove.query(
        `DELETE FROM attachments WHERE type = 'thumbnail' AND entity_id = ANY($1::uuid[])`,
        [[entity.id, theirs.id]],
      );

      const response = await as(trove, owner, 'post', CREATE_MISSING);

      expect([response.status, response.body]).toEqual([200, { completed: 1 }]);
      const after = await getEntity(trove, owner, entity.id);
      const remade = after.attachments.find((item) => item.id === photo.attachment.id)!;
      expect(remade.thumbnail).toMatchObject({
        type: 'thumbnail',
        path: first.attachment.thumbnail!.path,
      });
      expect(
        after.attachments.find((item) => item.id === broken.attachment.id)!.thumbnail,
      ).toBeNull();
      expect((await getEntity(trove, outsider, theirs.id)).attachments[0].thumbnail).toBeNull();
      expect(await storedKeys(trove)).toContain(first.attachment.thumbnail!.path);
      // The server is still well.
      expect((await as(trove, owner, 'post', CREATE_MISSING)).body).toEqual({ completed: 0 });
    });

    it('a failure to read the stored photo is logged, never fatal', async () => {
      const entity = await createEntity(trove, owner, 'Lost file');
      const photo = await uploadOk(trove, owner, entity.id, {
        content: await jpeg(90, 30),
        name: 'lost.jpg',
      });
      await waitForThumbnail(trove, owner, entity.id, photo.attachment.id);
      await trove.query(`DELETE FROM attachments WHERE type = 'thumbnail' AND entity_id = $1`, [
        entity.id,
      ]);
      await rm(path.join(trove.config.dataDir, 'attachments', ...photo.attachment.path.split('/')));

      const response = await as(trove, owner, 'post', CREATE_MISSING);

      expect([response.status, response.body]).toEqual([200, { completed: 0 }]);
    });

    it('deleting a photo deletes its thumbnail; a thumbnail cannot be changed but can be deleted', async () => {
      const entity = await createEntity(trove, owner, 'Pair');
      const one = await uploadOk(trove, owner, entity.id, {
        content: await jpeg(60, 60),
        name: 'one.jpg',
      });
      const two = await uploadOk(trove, owner, entity.id, {
        content: await png(60, 60),
        name: 'two.png',
      });
      const oneThumb = (await waitForThumbnail(trove, owner, entity.id, one.attachment.id))
        .attachment.thumbnail!;
      const twoThumb = (await waitForThumbnail(trove, owner, entity.id, two.attachment.id))
        .attachment.thumbnail!;

      const change = await as(trove, owner, 'put', attachmentUrl(entity.id, twoThumb.id)).send({
        type: 'photo',
        title: 'mine now',
      });
      expect([change.status, change.body]).toEqual([
        422,
        validation({ type: 'a thumbnail cannot be changed' }),
      ]);

      await as(trove, owner, 'delete', attachmentUrl(entity.id, one.attachment.id)).expect(204);
      await as(trove, owner, 'delete', attachmentUrl(entity.id, twoThumb.id)).expect(204);

      const rows = await attachmentRows(trove, entity.id);
      expect(rows.map((row) => row.id)).toEqual([two.attachment.id]);
      const keys = await storedKeys(trove);
      expect(keys).not.toContain(oneThumb.path);
      expect(keys).not.toContain(twoThumb.path);
      expect(keys).toContain(two.attachment.path);
      const after = await getEntity(trove, owner, entity.id);
      expect(after.attachments[0].thumbnail).toBeNull();
      expect(after.thumbnailId).toBeNull();
    });
  });

  describe('missing or bad token', () => {
    it('401 on both actions without a token or with a forged one; 403 for a viewer', async () => {
      for (const action of ['create-missing-thumbnails', 'set-primary-photos']) {
        const url = `/api/v1/actions/${action}`;
        const none = await trove.http.post(url);
        const forged = await trove.http.post(url).set('Authorization', FORGED_TOKEN);
        const byViewer = await as(trove, viewer, 'post', url);
        expect([action, none.status, none.body]).toEqual([action, 401, NO_TOKEN]);
        expect([action, forged.status, forged.body]).toEqual([action, 401, BAD_TOKEN]);
        expect([action, byViewer.status, byViewer.body]).toEqual([action, 403, VIEWER_ONLY_READS]);
      }
    });
  });
});

describe('thumbnails disabled', () => {
  let trove: TestApp;
  let owner: Session;

  beforeAll(async () => {
    trove = await createTestApp({ TROVE_THUMBNAIL_ENABLED: 'false' });
    owner = await signUp(trove);
  });
  afterAll(() => trove.close());

  it('makes none, after an upload or on request', async () => {
    const entity = await createEntity(trove, owner);
    const photo = await uploadOk(trove, owner, entity.id, {
      content: await jpeg(60, 60),
      name: 'a.jpg',
    });

    const response = await as(trove, owner, 'post', CREATE_MISSING);

    expect([response.status, response.body]).toEqual([200, { completed: 0 }]);
    expect(photo.attachment.primary).toBe(true);
    expect((await attachmentRows(trove, entity.id)).map((row) => row.type)).toEqual(['photo']);
  });
});
