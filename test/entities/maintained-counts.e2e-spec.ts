import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

interface EntityType {
  id: string;
  name: string;
  isLocation: boolean;
}

interface CountRow {
  group_id: string;
  entity_type_id: string;
  archived: boolean;
  entities: number;
  item_value: string;
  lifetime_warranties: number;
}

/**
 * The unfiltered list's total comes from counts kept by the database in the transaction of every
 * change (entity_counts). Whatever the changes and however many at once, those counts equal a
 * fresh count of the entities, and so does every total a client reads. Each test sends a few
 * hundred requests and compares every kept count with a fresh one after each round, which takes
 * up to half a minute on a loaded two-core machine.
 */
describe('maintained entity counts and sums', { timeout: 90_000 }, () => {
  let trove: TestApp;
  let owner: Session;
  let itemType: EntityType;
  let locationType: EntityType;

  beforeAll(async () => {
    trove = await createTestApp({ TROVE_DATABASE_POOL_WAIT: '120' });
    owner = await signUp(trove);
    const types = (
      await trove.http
        .get('/api/v1/entity-types')
        .set('Authorization', owner.authorization)
        .expect(200)
    ).body as EntityType[];
    itemType = types.find((type) => !type.isLocation)!;
    locationType = types.find((type) => type.isLocation)!;
  });
  afterAll(() => trove.close());

  const send = (method: 'post' | 'put' | 'patch' | 'delete', path: string, body?: object) => {
    const request = trove.http[method](path).set('Authorization', owner.authorization);
    return body ? request.send(body) : request;
  };

  const create = async (
    name: string,
    entityTypeId: string,
    parentId?: string,
    extra: Record<string, unknown> = {},
  ) => {
    const response = await send('post', '/api/v1/entities', {
      name,
      entityTypeId,
      parentId,
      ...extra,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return (response.body as { id: string }).id;
  };

  /** The counts and sums the database keeps, without rows that count nothing. */
  const maintained = (session: Session) =>
    trove.query<CountRow>(
      `SELECT group_id, entity_type_id, archived, entities::int AS entities,
              item_value::text AS item_value, lifetime_warranties::int AS lifetime_warranties
       FROM entity_counts
       WHERE group_id = $1 AND (entities <> 0 OR item_value <> 0 OR lifetime_warranties <> 0)
       ORDER BY entity_type_id, archived`,
      [session.groupId],
    );

  /** A fresh count and sum of the same. */
  const counted = (session: Session) =>
    trove.query<CountRow>(
      `SELECT group_id, entity_type_id, archived, count(*)::int AS entities,
              sum(purchase_price * quantity::numeric)::text AS item_value,
              (count(*) FILTER (WHERE lifetime_warranty))::int AS lifetime_warranties
       FROM entities
       WHERE group_id = $1 GROUP BY group_id, entity_type_id, archived
       ORDER BY entity_type_id, archived`,
      [session.groupId],
    );

  /** The kept Σ price of each parent's children by type, and of each tag's entities, are fresh. */
  const expectSumsExact = async (session: Session) => {
    const numeric = (rows: Record<string, unknown>[]) =>
      rows.map((row) => ({ ...row, value: Number(row.value) }));
    expect(
      numeric(
        await trove.query(
          `SELECT v.parent_id, v.entity_type_id, v.value FROM entity_child_values v
           JOIN entities p ON p.id = v.parent_id
           WHERE p.group_id = $1 AND v.value <> 0 ORDER BY 1, 2`,
          [session.groupId],
        ),
      ),
    ).toEqual(
      numeric(
        await trove.query(
          `SELECT parent_id, entity_type_id, sum(purchase_price) AS value FROM entities
           WHERE group_id = $1 AND parent_id IS NOT NULL GROUP BY 1, 2
           HAVING sum(purchase_price) <> 0 ORDER BY 1, 2`,
          [session.groupId],
        ),
      ),
    );
    expect(
      numeric(
        await trove.query(
          `SELECT v.tag_id, v.entities::int AS entities, v.value FROM tag_values v
           JOIN tags g ON g.id = v.tag_id WHERE g.group_id = $1 AND v.entities <> 0 ORDER BY 1`,
          [session.groupId],
        ),
      ),
    ).toEqual(
      numeric(
        await trove.query(
          `SELECT et.tag_id, count(*)::int AS entities, sum(e.purchase_price) AS value
           FROM entity_tags et JOIN entities e ON e.id = et.entity_id
           WHERE e.group_id = $1 GROUP BY 1 ORDER BY 1`,
          [session.groupId],
        ),
      ),
    );
    // The kept Σ quantity of each parent's children by type, archived ones left out, which the
    // item counts of the views read.
    expect(
      await trove.query(
        `SELECT i.parent_id, i.entity_type_id, i.quantity::float8 AS quantity
         FROM entity_child_items i JOIN entities p ON p.id = i.parent_id
         WHERE p.group_id = $1 AND i.quantity <> 0 ORDER BY 1, 2`,
        [session.groupId],
      ),
    ).toEqual(
      await trove.query(
        `SELECT parent_id, entity_type_id, sum(quantity::numeric)::float8 AS quantity
         FROM entities WHERE group_id = $1 AND parent_id IS NOT NULL AND NOT archived
         GROUP BY 1, 2 HAVING sum(quantity::numeric) <> 0 ORDER BY 1, 2`,
        [session.groupId],
      ),
    );
  };

  /** What a list filtered by tags `$2` shows of group `$1`, freshly from the links and the tree. */
  const FRESH_TAG_MATCHES = `WITH RECURSIVE up(entity_id, tag_id) AS (
      SELECT et.entity_id, et.tag_id FROM entity_tags et
      JOIN entities e ON e.id = et.entity_id WHERE e.group_id = $1
      UNION
      SELECT u.entity_id, t.parent_id FROM up u JOIN tags t ON t.id = u.tag_id
      WHERE t.parent_id IS NOT NULL
    )
    SELECT up.entity_id, up.tag_id, e.entity_type_id, e.archived, e.name
    FROM up JOIN entities e ON e.id = up.entity_id`;

  /**
   * The kept match set of every tag (the entities carrying it or one of its descendants, with
   * their type, archived state and name) and its counts against a fresh walk of the links and
   * the tag tree; and every tag's filtered list, total and first page, against a fresh query.
   */
  const expectTagMatchesExact = async (session: Session) => {
    expect(
      await trove.query(
        `SELECT m.entity_id, m.tag_id, m.entity_type_id, m.archived, m.name FROM tag_matches m
         JOIN tags g ON g.id = m.tag_id WHERE g.group_id = $1 ORDER BY 1, 2`,
        [session.groupId],
      ),
    ).toEqual(await trove.query(`${FRESH_TAG_MATCHES} ORDER BY 1, 2`, [session.groupId]));
    expect(
      await trove.query(
        `SELECT c.tag_id, c.entity_type_id, c.archived, sum(c.entities)::int AS entities
         FROM tag_match_counts c JOIN tags g ON g.id = c.tag_id WHERE g.group_id = $1
         GROUP BY 1, 2, 3 HAVING sum(c.entities) <> 0 ORDER BY 1, 2, 3`,
        [session.groupId],
      ),
    ).toEqual(
      await trove.query(
        `SELECT tag_id, entity_type_id, archived, count(*)::int AS entities
         FROM (${FRESH_TAG_MATCHES}) m GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        [session.groupId],
      ),
    );
    const tags = await trove.query<{ id: string }>(
      'SELECT id FROM tags WHERE group_id = $1 ORDER BY id',
      [session.groupId],
    );
    for (const { id: tag } of tags) {
      for (const includeArchived of [false, true]) {
        const response = await trove.http
          .get('/api/v1/entities')
          .query({ tags: tag, includeArchived, page: 1, pageSize: 7 })
          .set('Authorization', session.authorization)
          .expect(200);
        const fresh = await trove.query<{ id: string }>(
          `SELECT e.id FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
           WHERE e.group_id = $1 AND NOT t.is_location AND ($3 OR NOT e.archived)
             AND e.id IN (SELECT entity_id FROM (${FRESH_TAG_MATCHES}) m WHERE m.tag_id = $2)
           ORDER BY lower(e.name COLLATE "C"), e.name COLLATE "C", e.id`,
          [session.groupId, tag, includeArchived],
        );
        const body = response.body as { total: number; items: { id: string }[] };
        expect(body.total, `${tag} ${includeArchived}`).toBe(fresh.length);
        expect(body.items.map((item) => item.id)).toEqual(fresh.slice(0, 7).map((row) => row.id));
      }
    }
  };

  /** The totals of the four unfiltered lists against a fresh count of what each lists. */
  const expectListTotalsExact = async (session: Session) => {
    for (const isLocation of [false, true]) {
      for (const includeArchived of [false, true]) {
        const response = await trove.http
          .get('/api/v1/entities')
          .query({ isLocation, includeArchived, page: 1, pageSize: 1 })
          .set('Authorization', session.authorization)
          .expect(200);
        const [fresh] = await trove.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
           WHERE e.group_id = $1 AND t.is_location = $2 AND ($3 OR NOT e.archived)`,
          [session.groupId, isLocation, includeArchived],
        );
        expect((response.body as { total: number }).total, `${isLocation} ${includeArchived}`).toBe(
          fresh.count,
        );
      }
    }
  };

  it('equal a fresh count after creates, archives, moves, type changes and deletes sent at once', async () => {
    const locations = await Promise.all(
      Array.from({ length: 8 }, (_, k) => create(`Room ${k}`, locationType.id)),
    );
    const tags = await Promise.all(
      ['Red', 'Green', 'Blue'].map(
        async (name) =>
          ((await send('post', '/api/v1/tags', { name }).expect(201)).body as { id: string }).id,
      ),
    );
    const items = await Promise.all(
      Array.from({ length: 120 }, (_, k) =>
        create(`Thing ${k}`, itemType.id, locations[k % 8], {
          tagIds: [tags[k % 3], tags[(k + 1) % 3]],
          quantity: 1 + (k % 3),
        }),
      ),
    );
    // Prices and warranties are set by a full replacement (a create takes neither).
    await Promise.all(
      items.map((id, k) =>
        send('put', `/api/v1/entities/${id}`, {
          id,
          name: `Thing ${k}`,
          entityTypeId: itemType.id,
          parentId: locations[k % 8],
          tagIds: [tags[k % 3], tags[(k + 1) % 3]],
          quantity: 1 + (k % 3),
          purchasePrice: 2.5 * (k % 7),
          lifetimeWarranty: k % 5 === 0,
        }).expect(200),
      ),
    );
    expect(await maintained(owner)).toEqual(await counted(owner));
    await expectSumsExact(owner);
    await expectTagMatchesExact(owner);
    // A tag's counts are rows of changes that writers fold once there are more than 32: the
    // 240 links above left a few per tag, not one per write.
    const [crowded] = await trove.query<{ rows: number }>(
      `SELECT max(n)::int AS rows FROM (SELECT count(*) AS n FROM tag_match_counts WHERE tag_id = ANY($1)
       GROUP BY tag_id) c`,
      [tags],
    );
    expect(crowded.rows).toBeGreaterThan(0);
    expect(crowded.rows).toBeLessThanOrEqual(40);

    const responses = await Promise.all([
      ...Array.from({ length: 60 }, (_, k) =>
        send('post', '/api/v1/entities', {
          name: `New ${k}`,
          entityTypeId: k % 4 === 0 ? locationType.id : itemType.id,
          parentId: locations[k % 8],
        }),
      ),
      // Archive 30 with a new price and other tags (a full replacement).
      ...items.slice(0, 30).map((id, k) =>
        send('put', `/api/v1/entities/${id}`, {
          id,
          name: `Archived ${k}`,
          entityTypeId: itemType.id,
          parentId: locations[(k + 1) % 8],
          tagIds: [tags[(k + 2) % 3]],
          purchasePrice: 100 + k,
          archived: true,
        }),
      ),
      // Re-tag 10.
      ...items
        .slice(110, 120)
        .map((id) => send('patch', `/api/v1/entities/${id}`, { id, tagIds: [tags[2]] })),
      // Move 20 to another location.
      ...items
        .slice(30, 50)
        .map((id, k) =>
          send('patch', `/api/v1/entities/${id}`, { id, parentId: locations[(k + 3) % 8] }),
        ),
      // Turn 20 items into locations by their type.
      ...items
        .slice(50, 70)
        .map((id) =>
          send('patch', `/api/v1/entities/${id}`, { id, entityTypeId: locationType.id }),
        ),
      // Delete 30, among them some that the archives above touch.
      ...items.slice(20, 30).map((id) => send('delete', `/api/v1/entities/${id}`)),
      ...items.slice(70, 90).map((id) => send('delete', `/api/v1/entities/${id}`)),
      // Duplicate 20.
      ...items
        .slice(90, 110)
        .map((id) => send('post', `/api/v1/entities/${id}/duplicate`, { copyCustomFields: false })),
    ]);

    // Deleting an entity that a concurrent archive replaced may answer 404 to the archive;
    // nothing answers a server error.
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses.filter((status) => ![200, 201, 204, 404].includes(status))).toEqual([]);

    expect(await maintained(owner)).toEqual(await counted(owner));
    await expectSumsExact(owner);
    await expectTagMatchesExact(owner);
    await expectListTotalsExact(owner);
    const [archived] = await trove.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM entities WHERE group_id = $1 AND archived',
      [owner.groupId],
    );
    expect(archived.count).toBeGreaterThanOrEqual(20);
  });

  it('equal a fresh count after bulk archives, moves, tags, price and quantity edits and deletes', async () => {
    const shelf = await create('Bulk shelf', locationType.id);
    const tags = await Promise.all(
      ['Bulk A', 'Bulk B'].map(
        async (name) =>
          ((await send('post', '/api/v1/tags', { name }).expect(201)).body as { id: string }).id,
      ),
    );
    const items = await Promise.all(
      Array.from({ length: 60 }, (_, k) =>
        create(`Bulk ${k}`, itemType.id, undefined, {
          tagIds: [tags[k % 2]],
          quantity: 1 + (k % 4),
        }),
      ),
    );
    const bulk = (ids: string[], change: Record<string, unknown>) =>
      send('post', '/api/v1/entities/bulk', { ids, ...change }).expect(200);
    const expectFresh = async () => {
      expect(await maintained(owner)).toEqual(await counted(owner));
      await expectSumsExact(owner);
      await expectTagMatchesExact(owner);
      await expectListTotalsExact(owner);
      const stats = (
        await trove.http
          .get('/api/v1/groups/statistics')
          .set('Authorization', owner.authorization)
          .expect(200)
      ).body as { totalItems: number; totalItemPrice: number; totalLocations: number };
      const [fresh] = await trove.query<{ items: number; value: number; locations: number }>(
        `SELECT (count(*) FILTER (WHERE NOT t.is_location AND NOT e.archived))::int AS items,
                coalesce(sum(e.purchase_price * e.quantity::numeric)
                  FILTER (WHERE NOT t.is_location AND NOT e.archived), 0)::float8 AS value,
                (count(*) FILTER (WHERE t.is_location))::int AS locations
         FROM entities e JOIN entity_types t ON t.id = e.entity_type_id WHERE e.group_id = $1`,
        [owner.groupId],
      );
      expect({
        items: stats.totalItems,
        value: stats.totalItemPrice,
        locations: stats.totalLocations,
      }).toEqual(fresh);
    };

    await bulk(items.slice(0, 40), { action: 'setFields', fields: { purchasePrice: 7.5 } });
    await bulk(items.slice(20, 50), { action: 'setFields', fields: { quantity: 3 } });
    await bulk(items.slice(0, 30), { action: 'move', parentId: shelf });
    await expectFresh();
    await bulk(items.slice(10, 35), { action: 'archive' });
    await bulk(items.slice(0, 45), { action: 'addTags', tagIds: tags });
    await bulk(items.slice(5, 15), { action: 'removeTags', tagIds: [tags[0]] });
    await expectFresh();
    await bulk(items.slice(15, 25), {
      action: 'setFields',
      fields: { purchasePrice: 1.25, quantity: 2, entityTypeId: locationType.id },
    });
    await bulk(items.slice(25, 30), { action: 'unarchive' });
    await expectFresh();
    await bulk([shelf, ...items.slice(0, 12), ...items.slice(40, 55)], { action: 'delete' });
    await expectFresh();
  });

  it('keep every tag filter exact while links, entities and the tag tree change at once', async () => {
    const tag = async (name: string, parentId?: string) =>
      ((await send('post', '/api/v1/tags', { name, parentId }).expect(201)).body as { id: string })
        .id;
    const top = await tag('Tree top');
    const middle = await tag('Tree middle', top);
    const leaf = await tag('Tree leaf', middle);
    const aside = await tag('Tree aside');
    const asideChild = await tag('Tree aside child', aside);
    const tags = [top, middle, leaf, aside, asideChild];
    const items = await Promise.all(
      Array.from({ length: 40 }, (_, k) =>
        create(`Tree item ${k}`, k % 10 === 9 ? locationType.id : itemType.id, undefined, {
          tagIds: [tags[k % 5], tags[(k * 3 + 1) % 5]],
        }),
      ),
    );
    await expectTagMatchesExact(owner);

    const responses = await Promise.all([
      // The tree reshaped: a subtree moved under another, a middle tag to the top, one deleted.
      send('put', `/api/v1/tags/${middle}`, { name: 'Tree middle', parentId: aside }),
      send('put', `/api/v1/tags/${leaf}`, { name: 'Tree leaf' }),
      send('delete', `/api/v1/tags/${asideChild}`),
      // Links changed (none to the tag being deleted: such a link conflicts with the deletion,
      // a 409), entities renamed, archived, retyped and deleted meanwhile.
      ...items
        .slice(0, 10)
        .map((id, k) =>
          send('patch', `/api/v1/entities/${id}`, { id, tagIds: [tags[(k + 2) % 4]] }),
        ),
      ...items.slice(10, 18).map((id, k) =>
        send('put', `/api/v1/entities/${id}`, {
          id,
          name: `Renamed ${k}`,
          tagIds: [tags[(k + 10) % 4], tags[(3 * (k + 10) + 1) % 4]],
        }),
      ),
      send('post', '/api/v1/entities/bulk', { ids: items.slice(18, 24), action: 'archive' }),
      ...items
        .slice(24, 28)
        .map((id) =>
          send('patch', `/api/v1/entities/${id}`, { id, entityTypeId: locationType.id }),
        ),
      ...items.slice(28, 34).map((id) => send('delete', `/api/v1/entities/${id}`)),
      send('post', '/api/v1/entities/bulk', {
        ids: items.slice(34, 40),
        action: 'addTags',
        tagIds: [leaf, top],
      }),
      ...items
        .slice(0, 4)
        .map((id) => send('post', `/api/v1/entities/${id}/duplicate`, { copyCustomFields: false })),
    ]);
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => ![200, 201, 204].includes(status))).toEqual([]);
    await expectTagMatchesExact(owner);
    const [moved] = await trove.query<{ parent_id: string }>(
      'SELECT parent_id FROM tags WHERE id = $1',
      [middle],
    );
    expect(moved.parent_id).toBe(aside);

    // A deleted tag's matches go with it; its parent keeps only what is still below.
    await send('delete', `/api/v1/tags/${aside}`).expect(204);
    expect(await trove.query('SELECT * FROM tag_matches WHERE tag_id = $1', [aside])).toEqual([]);
    expect(await trove.query('SELECT * FROM tag_match_counts WHERE tag_id = $1', [aside])).toEqual(
      [],
    );
    await expectTagMatchesExact(owner);
  });

  it('follow a type that becomes a location type, with no recount', async () => {
    const gadgets = (
      await send('post', '/api/v1/entity-types', { name: 'Gadget', isLocation: false }).expect(201)
    ).body as EntityType;
    await Promise.all(Array.from({ length: 12 }, (_, k) => create(`Gadget ${k}`, gadgets.id)));
    const before = (
      await trove.http
        .get('/api/v1/entities?isLocation=true&page=1&pageSize=1')
        .set('Authorization', owner.authorization)
        .expect(200)
    ).body as { total: number };

    await send('put', `/api/v1/entity-types/${gadgets.id}`, {
      name: 'Gadget',
      isLocation: true,
    }).expect(200);

    const after = (
      await trove.http
        .get('/api/v1/entities?isLocation=true&page=1&pageSize=1')
        .set('Authorization', owner.authorization)
        .expect(200)
    ).body as { total: number };
    expect(after.total).toBe(before.total + 12);
    await expectListTotalsExact(owner);
  });

  it('equal a fresh count after an import of a file and a wipe of the inventory', async () => {
    const csv = [
      'HB.name\tHB.location\tHB.archived\tHB.purchase_price\tHB.quantity\tHB.tags\tHB.lifetime_warranty',
      ...Array.from(
        { length: 300 },
        (_, k) =>
          `Imported ${k}\tShed/Shelf ${k % 5}\t${k % 7 === 0}\t${k % 11}.25\t${1 + (k % 4)}\tRed;Imported ${k % 3}\t${k % 6 === 0}`,
      ),
    ].join('\n');
    await send('post', '/api/v1/entities/import')
      .attach('csv', Buffer.from(csv), {
        filename: 'things.tsv',
        contentType: 'text/tab-separated-values',
      })
      .expect(204);
    expect(await maintained(owner)).toEqual(await counted(owner));
    await expectSumsExact(owner);
    await expectTagMatchesExact(owner);
    await expectListTotalsExact(owner);

    const wiped = await send('post', '/api/v1/actions/wipe-inventory', {}).expect(200);
    expect((wiped.body as { completed: number }).completed).toBeGreaterThan(300);
    expect(await maintained(owner)).toEqual([]);
    await expectSumsExact(owner);
    await expectTagMatchesExact(owner);
    await expectListTotalsExact(owner);
  });

  it('go with their group, and another group counts only its own', async () => {
    const other = await signUp(trove);
    const [otherItemType] = (
      (
        await trove.http
          .get('/api/v1/entity-types')
          .set('Authorization', other.authorization)
          .expect(200)
      ).body as EntityType[]
    ).filter((type) => !type.isLocation);
    for (let k = 0; k < 5; k++) {
      await trove.http
        .post('/api/v1/entities')
        .set('Authorization', other.authorization)
        .send({ name: `Theirs ${k}`, entityTypeId: otherItemType.id })
        .expect(201);
    }
    expect(await maintained(other)).toEqual(await counted(other));
    await expectListTotalsExact(other);
    await expectListTotalsExact(owner);

    // A second group of the same user, filled and then deleted with everything in it.
    const group = (
      await trove.http
        .post('/api/v1/groups')
        .set('Authorization', other.authorization)
        .send({ name: 'Short-lived' })
        .expect(201)
    ).body as { id: string };
    const inGroup = { ...other, groupId: group.id };
    const [shortType] = await trove.query<{ id: string }>(
      'SELECT id FROM entity_types WHERE group_id = $1 AND NOT is_location LIMIT 1',
      [group.id],
    );
    for (let k = 0; k < 3; k++) {
      await trove.http
        .post('/api/v1/entities')
        .set('Authorization', other.authorization)
        .set('X-Tenant', group.id)
        .send({ name: `Brief ${k}`, entityTypeId: shortType.id })
        .expect(201);
    }
    expect(await maintained(inGroup)).toEqual(await counted(inGroup));
    await trove.http
      .delete('/api/v1/groups')
      .set('Authorization', other.authorization)
      .set('X-Tenant', group.id)
      .expect(204);
    expect(
      await trove.query('SELECT * FROM entity_counts WHERE group_id = $1', [group.id]),
    ).toEqual([]);
    expect(await maintained(other)).toEqual(await counted(other));
  });
});
