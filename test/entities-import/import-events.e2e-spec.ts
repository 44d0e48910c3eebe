import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, useSharedApp } from '../support/api.js';
import { openFeed, type Feed } from '../events/feed.js';
import { csv, importCsv, importOk } from './import-helpers.js';

describe('POST /api/v1/entities/import on the change feed', () => {
  const t = useSharedApp();
  let feed: Feed;

  beforeAll(async () => {
    feed = await openFeed(t.trove.baseUrl, { headers: { Authorization: t.owner.authorization } });
  });
  afterAll(() => feed.close());

  /** A tag created by hand: once the socket hears it, everything before it has arrived. */
  const marker = async (name: string): Promise<void> => {
    const before = feed.frames.filter((frame) => frame === 'tag.mutation').length;
    await as(t.trove, t.owner, 'post', '/api/v1/tags').send({ name }).expect(201);
    await feed.waitFor('tag.mutation', before + 1);
  };

  it('an import with new tags is heard as tag.mutation and entity.mutation, once committed', async () => {
    await importOk(
      t.trove,
      t.owner,
      csv([
        ['HB.location', 'HB.name', 'HB.tags'],
        ['Attic', 'Fan', 'Summer'],
        ['Attic', 'Heater', 'Winter'],
      ]),
    );
    await marker('after import');
    // The import's own tag.mutation may arrive after the marker counted: wait for both.
    await feed.waitFor('tag.mutation', 2);
    expect(feed.events).toEqual(['tag.mutation', 'entity.mutation', 'tag.mutation']);
  });

  it('an import refused after writing (a loop of parents) is rolled back and not heard', async () => {
    await importOk(
      t.trove,
      t.owner,
      csv([
        ['HB.import_ref', 'HB.parent_import_ref', 'HB.location', 'HB.name'],
        ['outer', '', 'Attic', 'Outer'],
        ['inner', 'outer', 'Attic', 'Inner'],
      ]),
    );
    await marker('before refusal');
    feed.frames.length = 0;
    const response = await importCsv(
      t.trove,
      t.owner,
      csv([
        ['HB.import_ref', 'HB.parent_import_ref', 'HB.location', 'HB.name', 'HB.tags'],
        ['outer', 'inner', 'Attic', 'Outer', 'Brand new tag'],
      ]),
    );
    expect(response.status).toBe(422);
    expect(
      await t.trove.query('SELECT id FROM tags WHERE group_id = $1 AND name = $2', [
        t.owner.groupId,
        'Brand new tag',
      ]),
    ).toEqual([]);
    await marker('after refusal');
    expect(feed.events).toEqual(['tag.mutation']);
  });
});
