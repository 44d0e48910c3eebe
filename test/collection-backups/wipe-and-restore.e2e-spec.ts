import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  getEntity,
  jpeg,
  pdf,
  waitForThumbnail,
  type EntityWithAttachments,
} from '../attachments/attachment-helpers.js';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { exportZip, fillCollection, importZip, restoreZip, bytesOf } from './backup-helpers.js';

/** A JSON value with every id (and stored path) left out: what must survive a restore. */
function withoutIds(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, inner: unknown) =>
      key === 'id' ||
      (/I[dD]s?$/.test(key) && key !== 'assetId') ||
      key === 'path' ||
      key === 'updatedAt'
        ? undefined
        : inner,
    ),
  );
}

/** Everything of the collection a member sees, ids left out. */
async function collectionOf(trove: TestApp, session: Session) {
  const get = async (path: string) => (await as(trove, session, 'get', path).expect(200)).body;
  const page = (await get('/api/v1/entities?pageSize=100&includeArchived=true')) as {
    items: { id: string; name: string }[];
  };
  const entities: EntityWithAttachments[] = [];
  const maintenance: Record<string, unknown> = {};
  for (const item of [...page.items].sort((a, b) => a.name.localeCompare(b.name))) {
    entities.push(await getEntity(trove, session, item.id));
    maintenance[item.name] = await get(`/api/v1/entities/${item.id}/maintenance`);
  }
  return {
    entities,
    snapshot: withoutIds({
      entities,
      maintenance,
      tags: await get('/api/v1/tags'),
      tree: await get('/api/v1/entities/tree?withItems=true'),
      templates: await get('/api/v1/templates'),
    }),
  };
}

describe('export, wipe and restore one collection', () => {
  let trove: TestApp;
  let owner: Session;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove, { name: 'Ada' });
  });
  afterAll(() => trove.close());

  it('gives back the same entities, tags, fields, maintenance entries, photos and thumbnails', async () => {
    await fillCollection(
      trove,
      owner,
      { photo: await jpeg(800, 600, 6), manual: pdf() },
      (entityId, attachmentId) => waitForThumbnail(trove, owner, entityId, attachmentId),
    );
    const before = await collectionOf(trove, owner);
    // The list holds the items; the locations are in the tree of the snapshot.
    expect(before.entities.map((entity) => entity.name)).toEqual(['Camera']);
    expect(JSON.stringify(before.snapshot)).toContain('"Studio"');
    const files = new Map<string, Buffer>();
    for (const entity of before.entities) {
      for (const attachment of entity.attachments.filter((a) => a.mimeType !== 'link/url')) {
        files.set(
          `${entity.name}/${attachment.title}`,
          await bytesOf(trove, owner, entity.id, attachment.id),
        );
        if (attachment.thumbnail) {
          files.set(
            `${entity.name}/${attachment.title}/thumbnail`,
            await bytesOf(trove, owner, entity.id, attachment.thumbnail.id),
          );
        }
      }
    }
    expect([...files.keys()].some((key) => key.endsWith('/thumbnail'))).toBe(true);

    const { zip } = await exportZip(trove, owner);

    // A restore goes into an empty collection: wiping the inventory leaves the template, which
    // Homebox's rule (§18) counts as content, so the restore is refused until it is gone too.
    const wiped = await as(trove, owner, 'post', '/api/v1/actions/wipe-inventory')
      .send({ wipeTags: true, wipeLocations: true, wipeMaintenance: true })
      .expect(200);
    expect((wiped.body as { completed: number }).completed).toBeGreaterThan(0);
    const refused = await importZip(trove, owner, zip);
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    const templates = (await as(trove, owner, 'get', '/api/v1/templates').expect(200)).body as {
      id: string;
    }[];
    for (const template of templates) {
      await as(trove, owner, 'delete', `/api/v1/templates/${template.id}`).expect(204);
    }
    const emptied = await as(trove, owner, 'get', '/api/v1/entities?includeArchived=true').expect(
      200,
    );
    expect((emptied.body as { items: unknown[] }).items).toEqual([]);

    await restoreZip(trove, owner, zip);

    const after = await collectionOf(trove, owner);
    expect(after.snapshot).toEqual(before.snapshot);
    for (const entity of after.entities) {
      for (const attachment of entity.attachments.filter((a) => a.mimeType !== 'link/url')) {
        const bytes = await bytesOf(trove, owner, entity.id, attachment.id);
        expect(
          bytes.equals(files.get(`${entity.name}/${attachment.title}`)!),
          attachment.title,
        ).toBe(true);
        if (attachment.thumbnail) {
          const thumbnail = await bytesOf(trove, owner, entity.id, attachment.thumbnail.id);
          expect(thumbnail.equals(files.get(`${entity.name}/${attachment.title}/thumbnail`)!)).toBe(
            true,
          );
        }
      }
    }
  }, 120_000);
});
