import { DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { useSharedApp } from '../support/api.js';
import {
  attachmentSummaryJson,
  toAttachmentSummary,
} from '../../src/inventory/entities/views/attachments/attachment.mapper.js';
import { AttachmentRecord } from '../../src/inventory/attachments/attachment.record.js';
import {
  assetIdSql,
  formatAssetId,
  MAX_ASSET_ID,
} from '../../src/inventory/entities/core/asset-id.js';
import { EntityFieldRecord } from '../../src/inventory/entities/core/entity-field.record.js';
import { CHILD_SUMMARIES } from '../../src/inventory/entities/views/entity-view.sql.js';
import {
  entityFieldJson,
  linkEntityViews,
  toEntityChildSummary,
  toEntityField,
  type EntityViewRow,
} from '../../src/inventory/entities/views/entity.mapper.js';
import { EntityRecord } from '../../src/inventory/entities/core/entity.record.js';
import {
  entityTypeSummaryJson,
  toEntityTypeSummary,
} from '../../src/inventory/entity-types/entity-type.mapper.js';
import { EntityTypeRecord } from '../../src/inventory/entity-types/entity-type.record.js';
import { tagSummaryJson, toTagSummary } from '../../src/inventory/tags/tag.mapper.js';
import { TagRecord } from '../../src/inventory/tags/tag.record.js';

/**
 * Each shape that PostgreSQL builds as JSON for speed is also built by a TypeScript mapper; for
 * the same stored row both must give the same object.
 */
describe('response shapes built in SQL and in TypeScript', () => {
  let dataSource: DataSource;

  const t = useSharedApp(({ trove }) => {
    dataSource = trove.app.get(DataSource);
  });

  const post = async (path: string, body: object): Promise<{ id: string }> =>
    (
      await t.trove.http
        .post(path)
        .set('Authorization', t.owner.authorization)
        .send(body)
        .expect((response) => expect(response.status).toBeLessThan(300))
    ).body as { id: string };

  it('tag summary', async () => {
    const parent = await post('/api/v1/tags', { name: 'Tools' });
    const tag = await post('/api/v1/tags', {
      name: 'Drills ünd Sägen',
      description: 'with "quotes"',
      color: '#ff0000',
      icon: 'mdi-drill',
      parentId: parent.id,
    });
    for (const id of [parent.id, tag.id]) {
      const record = await dataSource.getRepository(TagRecord).findOneByOrFail({ id });
      const [row] = await t.trove.query<{ view: unknown }>(
        `SELECT ${tagSummaryJson('g')} AS view FROM tags g WHERE g.id = $1`,
        [id],
      );
      expect(row.view).toEqual(toTagSummary(record));
    }
  });

  it('entity type summary, with and without a default template', async () => {
    const template = await post('/api/v1/templates', { name: 'Power tool', description: 'x' });
    const withTemplate = await post('/api/v1/entity-types', {
      name: 'Tool',
      description: 'Hand-held',
      icon: 'mdi-hammer',
      isLocation: false,
      defaultTemplateId: template.id,
    });
    const plain = await post('/api/v1/entity-types', { name: 'Shelf', isLocation: true });
    for (const id of [withTemplate.id, plain.id]) {
      const record = await dataSource
        .getRepository(EntityTypeRecord)
        .findOneOrFail({ where: { id }, relations: { defaultTemplate: true } });
      const [row] = await t.trove.query<{ view: unknown }>(
        `SELECT ${entityTypeSummaryJson('t', 'tpl')} AS view FROM entity_types t
         LEFT JOIN entity_templates tpl ON tpl.id = t.default_template_id WHERE t.id = $1`,
        [id],
      );
      expect(row.view).toEqual(toEntityTypeSummary(record));
    }
  });

  /** Inserts a row and returns its id. */
  const insert = async (sql: string, params: unknown[]): Promise<string> =>
    (await t.trove.query<{ id: string }>(`${sql} RETURNING id`, params))[0].id;

  it('attachment summary, with and without a thumbnail', async () => {
    const entity = await post('/api/v1/entities', { name: 'Camera' });
    const thumbnail = await insert(
      `INSERT INTO attachments (entity_id, type, title, path, mime_type)
       VALUES ($1, 'thumbnail', 'front.webp', $2, 'image/webp')`,
      [entity.id, `${t.owner.groupId}/thumbnails/front`],
    );
    const photo = await insert(
      `INSERT INTO attachments (entity_id, type, "primary", title, path, mime_type, thumbnail_id)
       VALUES ($1, 'photo', true, 'Front "view" ü', $2, 'image/jpeg', $3)`,
      [entity.id, `${t.owner.groupId}/documents/front`, thumbnail],
    );
    const link = await insert(
      `INSERT INTO attachments (entity_id, type, title, path, mime_type)
       VALUES ($1, 'manual', 'Manual', 'https://example.com/manual.pdf', 'text/uri-list')`,
      [entity.id],
    );
    for (const id of [photo, link]) {
      const record = await dataSource
        .getRepository(AttachmentRecord)
        .findOneOrFail({ where: { id }, relations: { thumbnail: true } });
      const [row] = await t.trove.query<{ view: unknown }>(
        `SELECT ${attachmentSummaryJson('a', 'th')} AS view FROM attachments a
         LEFT JOIN attachments th ON th.id = a.thumbnail_id WHERE a.id = $1`,
        [id],
      );
      expect(row.view).toEqual(toAttachmentSummary(record));
    }
  });

  it('custom field of an entity', async () => {
    const entity = await post('/api/v1/entities', { name: 'Drill' });
    const fields = [
      ['text', 'Colour "dark"', 'grün', '0', false],
      ['number', 'Voltage', '', '9007199254740991', false],
      ['boolean', 'Cordless', '', '-3', true],
    ];
    for (const [position, [type, name, text, number, flag]] of fields.entries()) {
      const id = await insert(
        `INSERT INTO entity_fields (entity_id, type, name, text_value, number_value, boolean_value, position)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [entity.id, type, name, text, number, flag, position],
      );
      const record = await dataSource.getRepository(EntityFieldRecord).findOneByOrFail({ id });
      const [row] = await t.trove.query<{ view: unknown }>(
        `SELECT ${entityFieldJson('f')} AS view FROM entity_fields f WHERE f.id = $1`,
        [id],
      );
      expect(row.view).toEqual(toEntityField(record));
    }
  });

  it('entity child summary, of a location and of an item inside it with tags and a photo', async () => {
    const template = await post('/api/v1/templates', { name: 'Shelf template' });
    const shelfType = await post('/api/v1/entity-types', {
      name: 'Shelf',
      isLocation: true,
      defaultTemplateId: template.id,
    });
    const shelf = await post('/api/v1/entities', { name: 'Shelf A', entityTypeId: shelfType.id });
    const tags = [
      await post('/api/v1/tags', { name: 'zeta' }),
      await post('/api/v1/tags', { name: 'Alpha' }),
    ];
    const item = await post('/api/v1/entities', {
      name: 'Lamp "desk"',
      description: 'LED',
      parentId: shelf.id,
      quantity: 3,
      tagIds: tags.map((tag) => tag.id),
    });
    await t.trove.query(
      `UPDATE entities SET purchase_price = 12.5, sold_date = '2026-03-04', insured = true,
       archived = true WHERE id = $1`,
      [item.id],
    );
    const loose = await post('/api/v1/entities', {
      name: 'Loose',
      parentId: shelf.id,
      quantity: 2,
    });
    const thumbnail = await insert(
      `INSERT INTO attachments (entity_id, type, path) VALUES ($1, 'thumbnail', 'thumb')`,
      [item.id],
    );
    const photo = await insert(
      `INSERT INTO attachments (entity_id, type, "primary", path, thumbnail_id)
       VALUES ($1, 'photo', true, 'photo', $2)`,
      [item.id, thumbnail],
    );

    const load = (id: string): Promise<EntityRecord> =>
      dataSource.getRepository(EntityRecord).findOneOrFail({
        where: { id },
        relations: { entityType: { defaultTemplate: true }, tags: true },
      });
    const sqlView = async (id: string) => {
      const rows = await t.trove.query<EntityViewRow>(CHILD_SUMMARIES, [t.owner.groupId, [id]]);
      return JSON.parse(linkEntityViews(rows).shown[0]) as unknown;
    };
    const shelfView = toEntityChildSummary(await load(shelf.id), {
      photo: null,
      // The archived lamp does not count; the loose item's quantity does.
      itemCount: 2,
      parent: null,
    });
    const photoRecord = await dataSource
      .getRepository(AttachmentRecord)
      .findOneByOrFail({ id: photo });
    const itemView = toEntityChildSummary(await load(item.id), {
      photo: photoRecord,
      itemCount: 0,
      parent: shelfView,
    });
    expect(await sqlView(shelf.id)).toEqual(shelfView);
    expect(await sqlView(item.id)).toEqual(itemView);

    // Two items and their shelf in one statement: the shelf is one row, linked as the parent of
    // both, and each view gets its type and tags however many entities share them.
    const rows = await t.trove.query<EntityViewRow>(CHILD_SUMMARIES, [
      t.owner.groupId,
      [item.id, loose.id],
    ]);
    expect(rows.map((row) => row.id).sort()).toEqual([item.id, loose.id, shelf.id].sort());
    expect(linkEntityViews(rows).shown.map((view) => JSON.parse(view) as unknown)).toEqual([
      itemView,
      toEntityChildSummary(await load(loose.id), { photo: null, itemCount: 0, parent: shelfView }),
    ]);
  });

  it('asset id, at every length up to the largest bigint', async () => {
    const values = ['-1', '0', '1', '42', '999999', '1000000', '1234567', '9007199254740993'];
    values.push(String(MAX_ASSET_ID));
    const rows = await t.trove.query<{ value: string; shown: string }>(
      `SELECT v::text AS value, ${assetIdSql('v')} AS shown FROM unnest($1::bigint[]) AS v`,
      [values],
    );
    expect(rows.map((row) => row.shown)).toEqual(values.map((value) => formatAssetId(value)));
    expect(rows.map((row) => row.shown)).toEqual([
      '',
      '',
      '000-001',
      '000-042',
      '999-999',
      '100-0000',
      '123-4567',
      '900-7199254740993',
      '922-3372036854775807',
    ]);
  });
});
