import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  attachmentRows,
  attachmentUrl,
  BAD_TOKEN,
  createEntity,
  FORGED_TOKEN,
  NO_TOKEN,
  storedKeys,
  UNKNOWN_ID,
  validation,
  VIEWER_ONLY_READS,
} from './attachment-helpers.js';

const LINK_ERROR = 'external_id must be an absolute http or https URL without user info';

describe('POST /api/v1/entities/{id}/attachments/external', () => {
  let owner: Session;
  let viewer: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const link = (session: Session, entityId: string, body: object) =>
    as(app.trove, session, 'post', `/api/v1/entities/${entityId}/attachments/external`).send(body);

  describe('success', () => {
    it('keeps the link, titled after the URL without query or fragment, never primary', async () => {
      const entity = await createEntity(app.trove, owner);
      const url = 'https://example.com/docs/manual.pdf?lang=en#page=2';

      const response = await link(owner, entity.id, {
        source_type: 'link',
        external_id: url,
        attachment_type: 'manual',
      });

      expect(response.status).toBe(201);
      expect(response.body.id).toBe(entity.id);
      expect(response.body.imageId).toBeNull();
      expect(response.body.attachments).toEqual([
        {
          id: expect.any(String),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          mimeType: 'link/url',
          path: url,
          primary: false,
          title: 'https://example.com/docs/manual.pdf',
          type: 'manual',
          thumbnail: null,
        },
      ]);
    });

    it('uses the given title, defaults the type to attachment, and downloading redirects', async () => {
      const entity = await createEntity(app.trove, owner);
      const before = await storedKeys(app.trove);

      const response = await link(owner, entity.id, {
        source_type: 'link',
        external_id: 'http://intranet.example/wiki/Camera',
        title: 'Wiki page',
        attachment_type: '',
      });
      const attachment = response.body.attachments[0];
      const download = await as(app.trove, owner, 'get', attachmentUrl(entity.id, attachment.id));
      const byToken = await app.trove.http.get(
        `${attachmentUrl(entity.id, attachment.id)}?access_token=${viewer.attachmentToken}`,
      );

      expect(attachment).toMatchObject({ title: 'Wiki page', type: 'attachment', primary: false });
      expect([download.status, download.headers.location]).toEqual([
        302,
        'http://intranet.example/wiki/Camera',
      ]);
      expect([byToken.status, byToken.headers.location]).toEqual([
        302,
        'http://intranet.example/wiki/Camera',
      ]);
      expect(await storedKeys(app.trove)).toEqual(before);
    });

    it('a link can be renamed and deleted like any attachment', async () => {
      const entity = await createEntity(app.trove, owner);
      const created = await link(owner, entity.id, {
        source_type: 'link',
        external_id: 'https://example.com/',
      });
      const id = created.body.attachments[0].id as string;

      const renamed = await as(app.trove, owner, 'put', attachmentUrl(entity.id, id)).send({
        type: 'photo',
        title: 'Home page',
        primary: true,
      });
      expect(renamed.body.attachments[0]).toMatchObject({
        title: 'Home page',
        type: 'photo',
        primary: false,
      });
      await as(app.trove, owner, 'delete', attachmentUrl(entity.id, id)).expect(204);
      expect(await attachmentRows(app.trove, entity.id)).toEqual([]);
    });
  });

  describe('bad input', () => {
    it.each([
      [{}, { source_type: 'source_type must be "link"', external_id: 'external_id is required' }],
      [{ source_type: 'link', external_id: 42 }, { external_id: LINK_ERROR }],
      [
        { source_type: 'file', external_id: 'https://example.com' },
        { source_type: 'source_type must be "link"' },
      ],
      [{ source_type: 'link', external_id: 'ftp://example.com/x' }, { external_id: LINK_ERROR }],
      [{ source_type: 'link', external_id: '/relative/path' }, { external_id: LINK_ERROR }],
      [{ source_type: 'link', external_id: 'javascript:alert(1)' }, { external_id: LINK_ERROR }],
      [
        { source_type: 'link', external_id: 'https://user:pw@example.com/' },
        { external_id: LINK_ERROR },
      ],
      [
        { source_type: 'link', external_id: 'https://user@example.com/' },
        { external_id: LINK_ERROR },
      ],
      [
        { source_type: 'link', external_id: 'https://example.com/', attachment_type: 'thumbnail' },
        {
          attachment_type:
            'attachment_type must be one of the following values: attachment, photo, manual, warranty, receipt',
        },
      ],
      [
        { source_type: 'link', external_id: 'https://example.com/', title: 't'.repeat(256) },
        { title: 'title must be shorter than or equal to 255 characters' },
      ],
    ])('422 for %j', async (body, fields) => {
      const entity = await createEntity(app.trove, owner);

      const response = await link(owner, entity.id, body);

      expect([response.status, response.body]).toEqual([422, validation(fields)]);
      expect(await attachmentRows(app.trove, entity.id)).toEqual([]);
    });

    it('422 for a URL over 2048 characters', async () => {
      const entity = await createEntity(app.trove, owner);
      const response = await link(owner, entity.id, {
        source_type: 'link',
        external_id: `https://example.com/${'a'.repeat(2048)}`,
      });
      expect(response.status).toBe(422);
      expect(response.body.fields.external_id).toBe(
        'external_id must be shorter than or equal to 2048 characters',
      );
    });
  });

  describe('missing or bad token', () => {
    it('401 without a token or with a forged one; 403 for a viewer', async () => {
      const entity = await createEntity(app.trove, owner);
      const body = { source_type: 'link', external_id: 'https://example.com/' };
      const url = `/api/v1/entities/${entity.id}/attachments/external`;

      const none = await app.trove.http.post(url).send(body);
      const forged = await app.trove.http.post(url).set('Authorization', FORGED_TOKEN).send(body);
      const byViewer = await link(viewer, entity.id, body);

      expect([none.status, none.body]).toEqual([401, NO_TOKEN]);
      expect([forged.status, forged.body]).toEqual([401, BAD_TOKEN]);
      expect([byViewer.status, byViewer.body]).toEqual([403, VIEWER_ONLY_READS]);
      expect(await attachmentRows(app.trove, entity.id)).toEqual([]);
    });
  });

  describe("another group's entity", () => {
    it('404, and nothing is written', async () => {
      const theirs = await createEntity(app.trove, outsider);
      const body = { source_type: 'link', external_id: 'https://example.com/' };

      const foreign = await link(owner, theirs.id, body);
      const unknown = await link(owner, UNKNOWN_ID, body);

      expect([foreign.status, foreign.body]).toEqual([
        404,
        { error: `entity ${theirs.id} not found` },
      ]);
      expect(unknown.status).toBe(404);
      expect(await attachmentRows(app.trove, theirs.id)).toEqual([]);
    });
  });
});
