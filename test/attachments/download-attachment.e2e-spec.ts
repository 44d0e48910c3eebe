import { rm } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signIn, signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  attachmentUrl,
  BAD_TOKEN,
  binary,
  createEntity,
  DOWNLOAD_CSP,
  FORGED_TOKEN,
  jpeg,
  NO_TOKEN,
  pdf,
  UNKNOWN_ID,
  uploadOk,
  type AttachmentBody,
} from './attachment-helpers.js';

const jwtId = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { jti: string }).jti;

describe('GET /api/v1/entities/{id}/attachments/{attachment_id}', () => {
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let entityId: string;
  let photo: AttachmentBody;
  let photoBytes: Buffer;
  let text: AttachmentBody;
  const textBytes = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz\n');

  const app = useTestApp({ TROVE_THUMBNAIL_ENABLED: 'false' });
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    entityId = (await createEntity(app.trove, owner, 'Camera')).id;
    photoBytes = await jpeg(64, 32);
    photo = (
      await uploadOk(app.trove, owner, entityId, { content: photoBytes, name: 'front view.jpg' })
    ).attachment;
    text = (
      await uploadOk(app.trove, owner, entityId, { content: textBytes, name: 'Übersicht (1).txt' })
    ).attachment;
  });

  const get = (session: Session, id = photo.id, entity = entityId) =>
    as(app.trove, session, 'get', attachmentUrl(entity, id)).buffer(true).parse(binary);

  describe('success', () => {
    it('sends a photo inline with its stored type, validators and the sandboxing headers', async () => {
      const response = await get(owner);

      expect(response.status).toBe(200);
      expect(Buffer.compare(response.body as Buffer, photoBytes)).toBe(0);
      const hash = photo.path.split('/').at(-1);
      expect(response.headers).toMatchObject({
        'content-type': 'image/jpeg',
        'content-length': String(photoBytes.length),
        'accept-ranges': 'bytes',
        etag: `"${hash}"`,
        'last-modified': new Date(
          Math.floor(Date.parse(photo.createdAt) / 1000) * 1000,
        ).toUTCString(),
        'cache-control': 'private, no-cache',
        'content-disposition': "inline; filename*=UTF-8''front%20view.jpg",
        'content-security-policy': DOWNLOAD_CSP,
        'x-content-type-options': 'nosniff',
      });
    });

    it('sends a PDF inline and anything else as a download, the title encoded', async () => {
      const content = pdf();
      const { attachment } = await uploadOk(app.trove, owner, entityId, {
        content,
        name: 'manual.pdf',
      });

      const pdfResponse = await get(owner, attachment.id);
      const textResponse = await get(owner, text.id);

      expect(pdfResponse.headers['content-type']).toBe('application/pdf');
      expect(pdfResponse.headers['content-disposition']).toBe(
        "inline; filename*=UTF-8''manual.pdf",
      );
      expect(Buffer.compare(pdfResponse.body as Buffer, content)).toBe(0);
      expect(textResponse.headers['content-type']).toBe('text/plain');
      expect(textResponse.headers['content-disposition']).toBe(
        "attachment; filename*=UTF-8''%C3%9Cbersicht%20%281%29.txt",
      );
      expect(Buffer.compare(textResponse.body as Buffer, textBytes)).toBe(0);
    });

    it('never sends uploaded HTML inline: text/html as a download, sandboxed, not sniffable', async () => {
      const content = Buffer.from(
        '<html><body><script>fetch("/api/v1/users/self")</script></body></html>',
      );
      const { attachment } = await uploadOk(app.trove, owner, entityId, { content, name: '.jpg' });

      const response = await get(owner, attachment.id);

      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({
        'content-type': 'text/html',
        'content-disposition': "attachment; filename*=UTF-8''.jpg",
        'content-security-policy': DOWNLOAD_CSP,
        'x-content-type-options': 'nosniff',
      });
      expect(response.headers['content-security-policy']).toContain('sandbox');
    });

    it('lets a viewer download', async () => {
      const response = await get(viewer);
      expect(response.status).toBe(200);
      expect(Buffer.compare(response.body as Buffer, photoBytes)).toBe(0);
    });

    it('answers HEAD with the headers and no body', async () => {
      const response = await as(app.trove, owner, 'head', attachmentUrl(entityId, text.id));
      expect(response.status).toBe(200);
      expect(response.headers['content-length']).toBe(String(textBytes.length));
      expect(response.headers['content-type']).toBe('text/plain');
      expect(response.text ?? '').toBe('');
    });
  });

  describe('ranges', () => {
    const ranged = (range: string, extra: Record<string, string> = {}) =>
      get(owner, text.id).set({ Range: range, ...extra });
    const size = textBytes.length;

    it('206 with the bytes asked for', async () => {
      const first = await ranged('bytes=0-9');
      const open = await ranged('bytes=30-');
      const suffix = await ranged('bytes=-5');
      const beyond = await ranged(`bytes=30-${size + 100}`);

      expect([
        first.status,
        first.headers['content-range'],
        first.headers['content-length'],
      ]).toEqual([206, `bytes 0-9/${size}`, '10']);
      expect((first.body as Buffer).toString()).toBe('0123456789');
      expect([open.status, open.headers['content-range']]).toEqual([
        206,
        `bytes 30-${size - 1}/${size}`,
      ]);
      expect(Buffer.compare(open.body as Buffer, textBytes.subarray(30))).toBe(0);
      expect([suffix.status, (suffix.body as Buffer).toString()]).toEqual([
        206,
        textBytes.subarray(-5).toString(),
      ]);
      expect([beyond.status, beyond.headers['content-range']]).toEqual([
        206,
        `bytes 30-${size - 1}/${size}`,
      ]);
      expect(first.headers['content-security-policy']).toBe(DOWNLOAD_CSP);
    });

    it('416 for a range that starts past the end', async () => {
      const response = await as(app.trove, owner, 'get', attachmentUrl(entityId, text.id)).set(
        'Range',
        `bytes=${size}-`,
      );
      expect(response.status).toBe(416);
      expect(response.headers['content-range']).toBe(`bytes */${size}`);
      expect(response.body).toEqual({ error: `range not satisfiable: the file has ${size} bytes` });
    });

    it('the whole file for several ranges, a malformed one, or a stale If-Range', async () => {
      const etag = (await get(owner, text.id)).headers.etag;

      const several = await ranged('bytes=0-1,5-6');
      const malformed = await ranged('bytes=x-y');
      const stale = await ranged('bytes=0-1', { 'If-Range': '"not-the-tag"' });
      const current = await ranged('bytes=0-1', { 'If-Range': etag });

      for (const response of [several, malformed, stale]) {
        expect(response.status).toBe(200);
        expect(Buffer.compare(response.body as Buffer, textBytes)).toBe(0);
      }
      expect([current.status, (current.body as Buffer).toString()]).toEqual([206, '01']);
    });
  });

  describe('conditional requests', () => {
    it('304 when the ETag matches or the file is not newer than If-Modified-Since', async () => {
      const first = await get(owner);
      const etag = first.headers.etag;
      const lastModified = first.headers['last-modified'];

      const byTag = await get(owner).set('If-None-Match', `"other", ${etag}`);
      const byDate = await get(owner).set('If-Modified-Since', lastModified);
      const changedTag = await get(owner).set({
        'If-None-Match': '"other"',
        'If-Modified-Since': lastModified,
      });
      const olderDate = await get(owner).set('If-Modified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT');

      for (const response of [byTag, byDate]) {
        expect(response.status).toBe(304);
        expect((response.body as Buffer).length).toBe(0);
        expect(response.headers.etag).toBe(etag);
        expect(response.headers['last-modified']).toBe(lastModified);
      }
      expect(changedTag.status).toBe(200);
      expect(olderDate.status).toBe(200);
      expect(Buffer.compare(olderDate.body as Buffer, photoBytes)).toBe(0);
    });
  });

  describe('the attachment token', () => {
    it('downloads with ?access_token=, also naming the tenant', async () => {
      const plain = await app.trove.http
        .get(`${attachmentUrl(entityId, photo.id)}?access_token=${owner.attachmentToken}`)
        .buffer(true)
        .parse(binary);
      const withTenant = await app.trove.http
        .get(
          `${attachmentUrl(entityId, photo.id)}?access_token=${owner.attachmentToken}&tenant=${owner.groupId}`,
        )
        .buffer(true)
        .parse(binary);

      expect(plain.status).toBe(200);
      expect(Buffer.compare(plain.body as Buffer, photoBytes)).toBe(0);
      expect(withTenant.status).toBe(200);
    });

    it('401 once the attachment token has expired', async () => {
      const session = await signIn(app.trove, owner.email, owner.password);
      const url = `${attachmentUrl(entityId, photo.id)}?access_token=${session.attachmentToken}`;
      expect((await app.trove.http.get(url)).status).toBe(200);

      await app.trove.query(
        "UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE id = $1",
        [jwtId(session.attachmentToken)],
      );

      const response = await app.trove.http.get(url);
      expect([response.status, response.body]).toEqual([401, BAD_TOKEN]);
    });

    it('401 once the user has logged out everywhere', async () => {
      const user = await signUp(app.trove, { name: 'Grace' });
      const entity = await createEntity(app.trove, user, 'Laptop');
      const { attachment } = await uploadOk(app.trove, user, entity.id, {
        content: Buffer.from('grace'),
        name: 'notes.txt',
      });
      const url = `${attachmentUrl(entity.id, attachment.id)}?access_token=${user.attachmentToken}`;
      expect((await app.trove.http.get(url)).status).toBe(200);

      await as(app.trove, user, 'post', '/api/v1/users/logout/all').expect(204);

      const response = await app.trove.http.get(url);
      expect([response.status, response.body]).toEqual([401, BAD_TOKEN]);
    });
  });

  describe('missing or bad token', () => {
    it('401 without a token, with a forged one, or a forged ?access_token=', async () => {
      const none = await app.trove.http.get(attachmentUrl(entityId, photo.id));
      const forged = await app.trove.http
        .get(attachmentUrl(entityId, photo.id))
        .set('Authorization', FORGED_TOKEN);
      const forgedQuery = await app.trove.http.get(
        `${attachmentUrl(entityId, photo.id)}?access_token=${FORGED_TOKEN.slice(7)}`,
      );

      expect([none.status, none.body]).toEqual([401, NO_TOKEN]);
      expect([forged.status, forged.body]).toEqual([401, BAD_TOKEN]);
      expect([forgedQuery.status, forgedQuery.body]).toEqual([401, BAD_TOKEN]);
    });
  });

  describe("another entity's or group's attachment", () => {
    it('404 for a valid attachment id under another entity, group or an unknown id', async () => {
      const sibling = await createEntity(app.trove, owner, 'Tripod');
      const theirs = await createEntity(app.trove, outsider, 'Their camera');
      const { attachment: foreign } = await uploadOk(app.trove, outsider, theirs.id, {
        content: Buffer.from('secret'),
        name: 'secret.txt',
      });

      const underSibling = await as(app.trove, owner, 'get', attachmentUrl(sibling.id, photo.id));
      const foreignUnderMine = await as(
        app.trove,
        owner,
        'get',
        attachmentUrl(entityId, foreign.id),
      );
      const foreignUnderTheirs = await as(
        app.trove,
        owner,
        'get',
        attachmentUrl(theirs.id, foreign.id),
      );
      const mineByThem = await as(app.trove, outsider, 'get', attachmentUrl(entityId, photo.id));
      const unknown = await as(app.trove, owner, 'get', attachmentUrl(entityId, UNKNOWN_ID));
      const byTheirToken = await app.trove.http.get(
        `${attachmentUrl(entityId, photo.id)}?access_token=${outsider.attachmentToken}`,
      );

      expect([underSibling.status, underSibling.body]).toEqual([
        404,
        { error: `attachment ${photo.id} not found` },
      ]);
      expect([foreignUnderMine.status, foreignUnderMine.body]).toEqual([
        404,
        { error: `attachment ${foreign.id} not found` },
      ]);
      expect([foreignUnderTheirs.status, foreignUnderTheirs.body]).toEqual([
        404,
        { error: `entity ${theirs.id} not found` },
      ]);
      expect([mineByThem.status, mineByThem.body]).toEqual([
        404,
        { error: `entity ${entityId} not found` },
      ]);
      expect(unknown.status).toBe(404);
      expect(byTheirToken.status).toBe(404);
    });

    it('400 for ids that are not UUIDs', async () => {
      const badAttachment = await as(app.trove, owner, 'get', attachmentUrl(entityId, 'nope'));
      const badEntity = await as(app.trove, owner, 'get', attachmentUrl('nope', photo.id));
      expect([badAttachment.status, badAttachment.body]).toEqual([
        400,
        { error: 'invalid route key: attachment_id' },
      ]);
      expect([badEntity.status, badEntity.body]).toEqual([400, { error: 'invalid route key: id' }]);
    });

    it('404 when the stored file has gone missing', async () => {
      const { attachment } = await uploadOk(app.trove, owner, entityId, {
        content: Buffer.from('soon gone'),
        name: 'gone.txt',
      });
      await rm(path.join(app.trove.config.dataDir, 'attachments', ...attachment.path.split('/')));

      const response = await as(app.trove, owner, 'get', attachmentUrl(entityId, attachment.id));

      expect([response.status, response.body]).toEqual([
        404,
        { error: `the file of attachment ${attachment.id} is missing` },
      ]);
    });
  });
});
