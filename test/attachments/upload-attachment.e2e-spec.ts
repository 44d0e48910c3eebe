import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectSummaryShape } from '../entities/entity-helpers.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  as,
  ATTACHMENT_KEYS,
  attachmentRows,
  attachmentsUrl,
  BAD_TOKEN,
  createEntity,
  FORGED_TOKEN,
  jpeg,
  keyOf,
  NO_TOKEN,
  pdf,
  png,
  expectNoStagedFiles,
  storedKeys,
  UNKNOWN_ID,
  upload,
  uploadOk,
  validation,
  VIEWER_ONLY_READS,
} from './attachment-helpers.js';

const MIB = 1024 * 1024;

describe('POST /api/v1/entities/{id}/attachments', () => {
  let trove: TestApp;
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;

  beforeAll(async () => {
    trove = await createTestApp({
      TROVE_WEB_MAX_UPLOAD_SIZE: '1',
      TROVE_THUMBNAIL_ENABLED: 'false',
    });
    owner = await signUp(trove, { name: 'Ada' });
    member = await signUpMember(trove, owner, 'user');
    viewer = await signUpMember(trove, owner, 'viewer');
    outsider = await signUp(trove, { name: 'Eve' });
  });
  afterAll(() => trove.close());

  describe('success', () => {
    it('stores the file under a content key and answers 201 with the entity summary', async () => {
      const entity = await createEntity(trove, owner, 'Manual holder');
      const content = pdf();

      const response = await upload(trove, member, entity.id, {
        content,
        name: 'Owner manual.pdf',
        type: 'manual',
        contentType: 'text/plain',
      });

      expect(response.status).toBe(201);
      expectSummaryShape(response.body);
      expect(response.body.id).toBe(entity.id);
      expect(response.body.imageId).toBeNull();
      expect(response.body.attachments).toEqual([
        {
          id: expect.any(String),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          mimeType: 'application/pdf',
          path: keyOf(content, owner.groupId),
          primary: false,
          title: 'Owner manual.pdf',
          type: 'manual',
          thumbnail: null,
        },
      ]);
      expect(Object.keys(response.body.attachments[0]).sort()).toEqual(ATTACHMENT_KEYS);
      expect(await storedKeys(trove)).toContain(keyOf(content, owner.groupId));
      await expectNoStagedFiles(trove);
    });

    it('sniffs the type from the content, whatever the name and the client say', async () => {
      const entity = await createEntity(trove, owner);
      const cases: [Buffer, string, string][] = [
        [await png(20, 10), 'picture.pdf', 'image/png'],
        [await jpeg(20, 10), 'noextension', 'image/jpeg'],
        [Buffer.from('plain words, ünïcödé\n'), 'notes.jpg', 'text/plain'],
        [Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe]), 'blob.txt', 'application/octet-stream'],
        [Buffer.from('valid text\u0000with a NUL'), 'nul.txt', 'application/octet-stream'],
        [Buffer.from([0x61, 0xc3, 0x28]), 'latin.txt', 'application/octet-stream'],
        [
          Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
          'x.png',
          'image/svg+xml',
        ],
      ];
      for (const [content, name, mimeType] of cases) {
        const { attachment } = await uploadOk(trove, owner, entity.id, { content, name });
        expect([name, attachment.mimeType]).toEqual([name, mimeType]);
      }
    });

    it('stores a file named .jpg that holds HTML as text/html', async () => {
      const entity = await createEntity(trove, owner);
      const content = Buffer.from(
        '<!DOCTYPE html><html><script>alert(document.cookie)</script></html>',
      );

      const { attachment } = await uploadOk(trove, owner, entity.id, { content, name: '.jpg' });

      expect(attachment).toMatchObject({ title: '.jpg', mimeType: 'text/html', type: 'photo' });
    });

    it('infers the type from the extension when none is given', async () => {
      const entity = await createEntity(trove, owner);
      const content = Buffer.from('some text');
      const types: Record<string, string> = {};
      for (const name of ['a.JPG', 'b.jpeg', 'c.png', 'd.webp', 'e.heic', 'f.pdf', 'g', 'h.txt']) {
        types[name] = (await uploadOk(trove, owner, entity.id, { content, name })).attachment.type;
      }
      expect(types).toEqual({
        'a.JPG': 'photo',
        'b.jpeg': 'photo',
        'c.png': 'photo',
        'd.webp': 'photo',
        'e.heic': 'photo',
        'f.pdf': 'attachment',
        g: 'attachment',
        'h.txt': 'attachment',
      });
    });

    it('reduces the name to a safe base name for the title', async () => {
      const entity = await createEntity(trove, owner);
      const content = Buffer.from('x');
      const titles: string[] = [];
      for (const name of [
        '../../../etc/passwd',
        'C:\\Users\\ada\\receipt.txt',
        'dir/sub/..hidden..txt',
        'line\r\nbreak\u0007.txt',
        `${'n'.repeat(300)}.txt`,
      ]) {
        const response = await upload(trove, owner, entity.id, { content, name });
        expect(response.status).toBe(201);
        const attachments = response.body.attachments as { title: string; createdAt: string }[];
        titles.push(attachments.at(-1)!.title);
      }
      expect(titles).toEqual([
        'passwd',
        'receipt.txt',
        '.hidden.txt',
        'linebreak.txt',
        `${'n'.repeat(251)}.txt`,
      ]);
      const rows = await attachmentRows(trove, entity.id);
      for (const row of rows) expect(row.path).toBe(keyOf(content, owner.groupId));
    });

    it('accepts a file of exactly the size limit', async () => {
      const entity = await createEntity(trove, owner);
      const content = Buffer.alloc(MIB, 0x80);

      const { attachment } = await uploadOk(trove, owner, entity.id, { content, name: 'max.bin' });

      expect(attachment.mimeType).toBe('application/octet-stream');
      const download = await as(
        trove,
        owner,
        'get',
        `${attachmentsUrl(entity.id)}/${attachment.id}`,
      );
      expect(download.headers['content-length']).toBe(String(MIB));
    });

    it('keeps one stored file for identical uploads in a group, and separate ones per group', async () => {
      const mine = await createEntity(trove, owner);
      const theirs = await createEntity(trove, outsider);
      const content = Buffer.from('the same bytes, twice');

      const first = await uploadOk(trove, owner, mine.id, { content, name: 'one.txt' });
      const second = await uploadOk(trove, member, mine.id, { content, name: 'two.txt' });
      const other = await uploadOk(trove, outsider, theirs.id, { content, name: 'one.txt' });

      expect(second.attachment.path).toBe(first.attachment.path);
      expect(other.attachment.path).toBe(keyOf(content, outsider.groupId));
      expect(other.attachment.path).not.toBe(first.attachment.path);
      const keys = await storedKeys(trove);
      expect(keys.filter((key) => key === first.attachment.path)).toHaveLength(1);
      expect(keys).toContain(other.attachment.path);
    });
  });

  describe('bad input', () => {
    it('422 names the missing file and name together, and stores nothing', async () => {
      const entity = await createEntity(trove, owner);

      const empty = await as(trove, owner, 'post', attachmentsUrl(entity.id)).field(
        'type',
        'photo',
      );
      const noName = await as(trove, owner, 'post', attachmentsUrl(entity.id)).attach(
        'file',
        Buffer.from('x'),
        'x.txt',
      );
      const noFile = await as(trove, owner, 'post', attachmentsUrl(entity.id)).field(
        'name',
        'x.txt',
      );
      const json = await as(trove, owner, 'post', attachmentsUrl(entity.id)).send({
        name: 'x.txt',
      });

      expect([empty.status, empty.body]).toEqual([
        422,
        validation({ file: 'file is required', name: 'name is required' }),
      ]);
      expect([noName.status, noName.body]).toEqual([422, validation({ name: 'name is required' })]);
      expect([noFile.status, noFile.body]).toEqual([422, validation({ file: 'file is required' })]);
      expect([json.status, json.body]).toEqual([422, validation({ file: 'file is required' })]);
      expect(await attachmentRows(trove, entity.id)).toEqual([]);
      await expectNoStagedFiles(trove);
    });

    it('422 for a bad type, a bad primary flag or a name with no file name in it', async () => {
      const entity = await createEntity(trove, owner);
      const content = Buffer.from('x');

      const badType = await upload(trove, owner, entity.id, {
        content,
        name: 'a.txt',
        type: 'thumbnail',
      });
      const badPrimary = await upload(trove, owner, entity.id, {
        content,
        name: 'a.txt',
        primary: 'yes please',
      });
      const noBase = await upload(trove, owner, entity.id, { content, name: '../..' });

      expect([badType.status, badType.body]).toEqual([
        422,
        validation({
          type: 'type must be one of the following values: attachment, photo, manual, warranty, receipt',
        }),
      ]);
      expect([badPrimary.status, badPrimary.body]).toEqual([
        422,
        validation({ primary: 'primary must be true or false' }),
      ]);
      expect([noBase.status, noBase.body]).toEqual([
        422,
        validation({ name: 'name must contain a file name' }),
      ]);
      expect(await attachmentRows(trove, entity.id)).toEqual([]);
      await expectNoStagedFiles(trove);
    });

    it('413 for a file one byte over the limit, and nothing is stored', async () => {
      const entity = await createEntity(trove, owner);
      const before = await storedKeys(trove);

      const response = await upload(trove, owner, entity.id, {
        content: Buffer.alloc(MIB + 1, 9),
        name: 'big.bin',
      });

      expect(response.status).toBe(413);
      expect(response.body).toEqual({
        error: `uploaded file exceeds the size limit of ${MIB} bytes`,
      });
      expect(await attachmentRows(trove, entity.id)).toEqual([]);
      expect(await storedKeys(trove)).toEqual(before);
      await expectNoStagedFiles(trove);
    });

    it('413 at once for a request that declares a body far over the limit, without reading it', async () => {
      const entity = await createEntity(trove, owner);
      const url = new URL(`${trove.baseUrl}${attachmentsUrl(entity.id)}`);

      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = httpRequest(
          url,
          {
            method: 'POST',
            headers: {
              Authorization: owner.authorization,
              'Content-Type': 'multipart/form-data; boundary=x',
              'Content-Length': String(5 * MIB),
            },
          },
          (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (body += chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        request.on('error', reject);
        request.write('--x\r\n');
      });

      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        error: `uploaded file exceeds the size limit of ${MIB} bytes`,
      });
      expect(await attachmentRows(trove, entity.id)).toEqual([]);
    });

    it('400 for a malformed multipart body or a file under another field name', async () => {
      const entity = await createEntity(trove, owner);

      const malformed = await as(trove, owner, 'post', attachmentsUrl(entity.id))
        .set('Content-Type', 'multipart/form-data; boundary=abc')
        .send(
          '--abc\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nunterminated',
        );
      const wrongField = await as(trove, owner, 'post', attachmentsUrl(entity.id))
        .attach('upload', Buffer.from('x'), 'x.txt')
        .field('name', 'x.txt');

      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toMatch(/^failed to parse multipart form: /);
      expect(wrongField.status).toBe(400);
      expect(wrongField.body.error).toMatch(/^failed to parse multipart form: /);
      expect(await attachmentRows(trove, entity.id)).toEqual([]);
      await expectNoStagedFiles(trove);
    });

    it('400 for an entity id that is not a UUID, and nothing is left behind', async () => {
      const response = await upload(trove, owner, 'not-a-uuid', {
        content: Buffer.from('x'),
        name: 'x.txt',
      });

      expect([response.status, response.body]).toEqual([400, { error: 'invalid route key: id' }]);
      await expectNoStagedFiles(trove);
    });
  });

  describe('missing or bad token', () => {
    it('401 without a token or with a forged one', async () => {
      const entity = await createEntity(trove, owner);

      const none = await trove.http
        .post(attachmentsUrl(entity.id))
        .attach('file', Buffer.from('x'), 'x.txt')
        .field('name', 'x.txt');
      const forged = await trove.http
        .post(attachmentsUrl(entity.id))
        .set('Authorization', FORGED_TOKEN)
        .attach('file', Buffer.from('x'), 'x.txt')
        .field('name', 'x.txt');

      expect([none.status, none.body]).toEqual([401, NO_TOKEN]);
      expect([forged.status, forged.body]).toEqual([401, BAD_TOKEN]);
      expect(await attachmentRows(trove, entity.id)).toEqual([]);
    });

    it('403 for a viewer and for the attachment token', async () => {
      const entity = await createEntity(trove, owner);

      const byViewer = await upload(trove, viewer, entity.id, {
        content: Buffer.from('x'),
        name: 'x.txt',
      });
      const byAttachmentToken = await trove.http
        .post(`${attachmentsUrl(entity.id)}?access_token=${owner.attachmentToken}`)
        .attach('file', Buffer.from('x'), 'x.txt')
        .field('name', 'x.txt');

      expect([byViewer.status, byViewer.body]).toEqual([403, VIEWER_ONLY_READS]);
      expect([byAttachmentToken.status, byAttachmentToken.body]).toEqual([
        403,
        { error: 'Forbidden' },
      ]);
      expect(await attachmentRows(trove, entity.id)).toEqual([]);
    });
  });

  describe("another group's entity", () => {
    it('404, and nothing is stored', async () => {
      const theirs = await createEntity(trove, outsider);
      const content = Buffer.from('never stored anywhere');

      const foreign = await upload(trove, owner, theirs.id, { content, name: 'x.txt' });
      const unknown = await upload(trove, owner, UNKNOWN_ID, { content, name: 'x.txt' });

      expect([foreign.status, foreign.body]).toEqual([
        404,
        { error: `entity ${theirs.id} not found` },
      ]);
      expect([unknown.status, unknown.body]).toEqual([
        404,
        { error: `entity ${UNKNOWN_ID} not found` },
      ]);
      expect(await attachmentRows(trove, theirs.id)).toEqual([]);
      expect(await storedKeys(trove)).not.toContain(keyOf(content, owner.groupId));
      await expectNoStagedFiles(trove);
    });
  });
});
