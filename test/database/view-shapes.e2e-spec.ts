import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  entityTypeSummaryJson,
  toEntityTypeSummary,
} from '../../src/entity-types/entity-type.mapper.js';
import { EntityTypeRecord } from '../../src/entity-types/entity-type.record.js';
import { tagSummaryJson, toTagSummary } from '../../src/tags/tag.mapper.js';
import { TagRecord } from '../../src/tags/tag.record.js';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Each shape that PostgreSQL builds as JSON for speed is also built by a TypeScript mapper; for
 * the same stored row both must give the same object.
 */
describe('response shapes built in SQL and in TypeScript', () => {
  let trove: TestApp;
  let owner: Session;
  let dataSource: DataSource;

  beforeAll(async () => {
    trove = await createTestApp();
    owner = await signUp(trove);
    dataSource = trove.app.get(DataSource);
  });
  afterAll(() => trove.close());

  const post = async (path: string, body: object): Promise<{ id: string }> =>
    (
      await trove.http
        .post(path)
        .set('Authorization', owner.authorization)
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
      const [row] = await trove.query<{ view: unknown }>(
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
      const [row] = await trove.query<{ view: unknown }>(
        `SELECT ${entityTypeSummaryJson('t', 'tpl')} AS view FROM entity_types t
         LEFT JOIN entity_templates tpl ON tpl.id = t.default_template_id WHERE t.id = $1`,
        [id],
      );
      expect(row.view).toEqual(toEntityTypeSummary(record));
    }
  });
});
