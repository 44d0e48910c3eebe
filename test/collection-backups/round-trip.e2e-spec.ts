import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  as,
  getEntity,
  jpeg,
  pdf,
  waitForThumbnail,
  type EntityWithAttachments,
} from '../attachments/attachment-helpers.js';
import { startS3Server, type TestS3Server } from '../storage/s3-server.js';
import {
  exportZip,
  fillCollection,
  normalizedTables,
  restoreZip,
  unzip,
  bytesOf,
} from './backup-helpers.js';

/** The entity as the API shows it, ids left out. */
function withoutIds(entity: EntityWithAttachments): unknown {
  return JSON.parse(
    JSON.stringify(entity, (key, value: unknown) =>
      key === 'id' || key.endsWith('Id') || key === 'path' ? undefined : value,
    ),
  );
}

for (const driver of ['local', 's3'] as const) {
  describe(`collection backup round trip (${driver} storage)`, () => {
    let s3: TestS3Server | undefined;
    let trove: TestApp;
    let owner: Session;

    beforeAll(async () => {
      if (driver === 's3') s3 = await startS3Server();
      trove = await createTestApp(s3 ? s3.env('backups') : {});
      owner = await signUp(trove, { name: 'Ada' });
    });
    afterAll(async () => {
      await trove.close();
      await s3?.stop();
    });

    it('exports everything, restores it losslessly into a new collection, photos and thumbnails included', async () => {
      const filled = await fillCollection(
        trove,
        owner,
        { photo: await jpeg(640, 480, 6), manual: pdf() },
        (entityId, attachmentId) => waitForThumbnail(trove, owner, entityId, attachmentId),
      );
      const { job, zip } = await exportZip(trove, owner);
      expect(job).toEqual({
        id: job.id,
        groupId: owner.groupId,
        kind: 'export',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        status: 'completed',
        progress: 100,
        artifactPath: `/api/v1/group/exports/${job.id}/download`,
        sizeBytes: zip.length,
      });

      const entries = await unzip(zip);
      const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as {
        counts: Record<string, number>;
      };
      expect(manifest).toEqual({
        schemaVersion: 'trove-1',
        exportedAt: expect.any(String),
        groupId: owner.groupId,
        troveVersion: expect.any(String),
        counts: {
          entity_types: 2,
          entity_templates: 1,
          template_fields: 1,
          tags: expect.any(Number),
          entities: expect.any(Number),
          entity_fields: 3,
          entity_tags: 2,
          maintenance_entries: 1,
          entity_stock: 0,
          checkouts: 0,
          attachments: 4,
          files: 3,
        },
      });
      for (const [table, count] of Object.entries(manifest.counts)) {
        if (table === 'files') continue;
        expect(JSON.parse(entries.get(`${table}.json`)!.toString()), table).toHaveLength(count);
      }
      const fileEntries = [...entries.keys()].filter((name) => name.startsWith('attachments/'));
      expect(fileEntries).toHaveLength(3);
      const contents = fileEntries.map((name) => entries.get(name)!);
      expect(contents.some((content) => content.equals(filled.photo))).toBe(true);
      expect(contents.some((content) => content.equals(filled.manual))).toBe(true);

      const heir = await signUp(trove, { name: 'Heir' });
      const restored = await restoreZip(trove, heir, zip);
      expect(restored).toEqual({
        id: restored.id,
        groupId: heir.groupId,
        kind: 'import',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        status: 'completed',
        progress: 100,
        sizeBytes: zip.length,
      });

      // Every row of every table came back, with every column, only the ids differ.
      const again = await exportZip(trove, heir);
      expect(normalizedTables(await unzip(again.zip))).toEqual(normalizedTables(entries));

      // The API shows the same item, and the files' bytes are the same.
      const original = await getEntity(trove, owner, filled.itemId);
      const list = await as(trove, heir, 'get', '/api/v1/entities?q=Camera').expect(200);
      const copyId = (list.body as { items: { id: string; name: string }[] }).items.find(
        (item) => item.name === 'Camera',
      )!.id;
      const copy = await getEntity(trove, heir, copyId);
      expect(withoutIds(copy)).toEqual(withoutIds(original));
      for (const attachment of original.attachments.filter(
        (a) => a.type !== 'link' && a.mimeType !== 'link/url',
      )) {
        const twin = copy.attachments.find((a) => a.title === attachment.title)!;
        expect(
          (await bytesOf(trove, heir, copy.id, twin.id)).equals(
            await bytesOf(trove, owner, original.id, attachment.id),
          ),
        ).toBe(true);
        if (attachment.thumbnail) {
          expect(
            (await bytesOf(trove, heir, copy.id, twin.thumbnail!.id)).equals(
              await bytesOf(trove, owner, original.id, attachment.thumbnail.id),
            ),
          ).toBe(true);
        }
      }
    }, 90_000);

    it('pages through tables larger than one page, every row once', async () => {
      const bulk = await signUp(trove, { name: 'Bulk' });
      await trove.query(
        `INSERT INTO entities (group_id, entity_type_id, name)
         SELECT $1, (SELECT id FROM entity_types WHERE group_id = $1 AND NOT is_location LIMIT 1),
                'Bulk ' || n
         FROM generate_series(1, 1201) AS n`,
        [bulk.groupId],
      );
      await trove.query(
        `INSERT INTO entity_tags (entity_id, tag_id)
         SELECT e.id, t.id FROM entities e
         CROSS JOIN (SELECT id FROM tags WHERE group_id = $1 ORDER BY id LIMIT 2) t
         WHERE e.group_id = $1`,
        [bulk.groupId],
      );
      await trove.query(
        `INSERT INTO entity_fields (entity_id, name, type, text_value)
         SELECT id, 'Shelf', 'text', name FROM entities WHERE group_id = $1`,
        [bulk.groupId],
      );
      const counts = async (groupId: string) =>
        (
          await trove.query<{ entities: number; links: number; fields: number }>(
            `SELECT (SELECT count(*)::int FROM entities WHERE group_id = $1) AS entities,
                    (SELECT count(*)::int FROM entity_tags et JOIN entities e ON e.id = et.entity_id
                      WHERE e.group_id = $1) AS links,
                    (SELECT count(*)::int FROM entity_fields f JOIN entities e ON e.id = f.entity_id
                      WHERE e.group_id = $1) AS fields`,
            [groupId],
          )
        )[0];
      const before = await counts(bulk.groupId);
      expect(before.entities).toBeGreaterThan(1201);
      expect(before.links).toBe(before.entities * 2);

      const { zip } = await exportZip(trove, bulk);
      const entries = await unzip(zip);
      const rows = (table: string) =>
        JSON.parse(entries.get(`${table}.json`)!.toString()) as Record<string, string>[];
      expect(new Set(rows('entities').map((row) => row.id)).size).toBe(before.entities);
      expect(new Set(rows('entity_tags').map((row) => `${row.entity_id}/${row.tag_id}`)).size).toBe(
        before.links,
      );
      expect(new Set(rows('entity_fields').map((row) => row.id)).size).toBe(before.fields);

      const heir = await signUp(trove, { name: 'Bulk heir' });
      await restoreZip(trove, heir, zip);
      expect(await counts(heir.groupId)).toEqual(before);
    }, 90_000);
  });
}
