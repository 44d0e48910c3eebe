import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttachmentsService } from '../../src/attachments/attachments.service.js';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  as,
  attachmentsUrl,
  createEntity,
  getEntity,
  jpeg,
  pdf,
  uploadOk,
  waitForThumbnail,
} from './attachment-helpers.js';

/** The service API entities call when duplicating an entity with its attachments. */
describe('AttachmentsService.copyAll', () => {
  let trove: TestApp;
  let attachments: AttachmentsService;
  let owner: Session;

  beforeAll(async () => {
    trove = await createTestApp();
    attachments = trove.app.get(AttachmentsService);
    owner = await signUp(trove);
  });
  afterAll(() => trove.close());

  it('copies files, links and the primary photo, sharing the files and not the thumbnails', async () => {
    const source = await createEntity(trove, owner, 'Original');
    const target = await createEntity(trove, owner, 'Copy');
    const photo = await uploadOk(trove, owner, source.id, {
      content: await jpeg(64, 48),
      name: 'front.jpg',
      type: 'photo',
    });
    await waitForThumbnail(trove, owner, source.id, photo.attachment.id);
    await uploadOk(trove, owner, source.id, { content: pdf(), name: 'manual.pdf', type: 'manual' });
    await as(trove, owner, 'post', `${attachmentsUrl(source.id)}/external`)
      .send({ source_type: 'link', external_id: 'https://example.com/specs', title: 'Specs' })
      .expect(201);

    await attachments.copyAll(source.id, target.id);

    const original = await getEntity(trove, owner, source.id);
    const copy = await getEntity(trove, owner, target.id);
    const shape = (entity: typeof copy) =>
      entity.attachments
        .map(({ title, type, primary, mimeType, path }) => ({
          title,
          type,
          primary,
          mimeType,
          path,
        }))
        .sort((a, b) => a.title.localeCompare(b.title));
    expect(shape(copy)).toEqual(shape(original));
    expect(copy.attachments).toHaveLength(3);
    expect(copy.attachments.every((item) => item.thumbnail === null)).toBe(true);
    expect(copy.attachments.map((item) => item.id)).not.toContain(photo.attachment.id);
    const rows = await trove.query<{ type: string }>(
      'SELECT type FROM attachments WHERE entity_id = $1',
      [target.id],
    );
    expect(rows.map((row) => row.type)).not.toContain('thumbnail');
  });

  it('copies nothing from an entity without attachments', async () => {
    const source = await createEntity(trove, owner, 'Empty');
    const target = await createEntity(trove, owner, 'Empty copy');
    await attachments.copyAll(source.id, target.id);
    expect((await getEntity(trove, owner, target.id)).attachments).toEqual([]);
  });
});
