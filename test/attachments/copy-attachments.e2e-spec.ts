import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { AttachmentsService } from '../../src/inventory/attachments/attachments.service.js';
import { signUp, type Session } from '../support/factories.js';
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
  let attachments: AttachmentsService;
  let owner: Session;

  const app = useTestApp();
  beforeAll(async () => {
    attachments = app.trove.app.get(AttachmentsService);
    owner = await signUp(app.trove);
  });

  it('copies files, links and the primary photo, sharing the files and not the thumbnails', async () => {
    const source = await createEntity(app.trove, owner, 'Original');
    const target = await createEntity(app.trove, owner, 'Copy');
    const photo = await uploadOk(app.trove, owner, source.id, {
      content: await jpeg(64, 48),
      name: 'front.jpg',
      type: 'photo',
    });
    await waitForThumbnail(app.trove, owner, source.id, photo.attachment.id);
    await uploadOk(app.trove, owner, source.id, {
      content: pdf(),
      name: 'manual.pdf',
      type: 'manual',
    });
    await as(app.trove, owner, 'post', `${attachmentsUrl(source.id)}/external`)
      .send({ source_type: 'link', external_id: 'https://example.com/specs', title: 'Specs' })
      .expect(201);

    await attachments.copyAll(source.id, target.id);

    const original = await getEntity(app.trove, owner, source.id);
    const copy = await getEntity(app.trove, owner, target.id);
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
    const rows = await app.trove.query<{ type: string }>(
      'SELECT type FROM attachments WHERE entity_id = $1',
      [target.id],
    );
    expect(rows.map((row) => row.type)).not.toContain('thumbnail');
  });

  it('copies nothing from an entity without attachments', async () => {
    const source = await createEntity(app.trove, owner, 'Empty');
    const target = await createEntity(app.trove, owner, 'Empty copy');
    await attachments.copyAll(source.id, target.id);
    expect((await getEntity(app.trove, owner, target.id)).attachments).toEqual([]);
  });
});
