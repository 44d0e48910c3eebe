import type pg from 'pg';
import {
  ADJECTIVES,
  BRANDS,
  COLOURS,
  COMMON_WORD,
  COMMON_WORD_MATCHES,
  CONTAINERS,
  FIELD_NAMES,
  FLAT_TAGS,
  LEAF_KINDS,
  NOUNS,
  PEOPLE,
  RARE_WORD,
  REMARKS,
  ROOM_KINDS,
  TAG_COLOURS,
  TAG_TREE,
  WARRANTY_PROVIDERS,
} from './words.js';

/**
 * Fills one group with a realistic inventory straight through SQL, deterministically: locations
 * in three levels, items inside them (some inside container items), nested tags, tags on
 * items, custom fields, asset ids 1..N. Rows are made by `generate_series` in batches.
 */

export interface SeedPlan {
  groupId: string;
  itemTypeId: string;
  locationTypeId: string;
  /** Entities the group should hold in the end, those it already has included. */
  entities: number;
  progress: (message: string) => void;
}

export interface SeedResult {
  entities: number;
  locations: number;
  items: number;
  archived: number;
  tags: number;
  entityTags: number;
  entityFields: number;
  seconds: number;
  /** Location ids of the deepest level, where items live. */
  leafLocationIds: string[];
  /** Every tag id of the group. */
  tagIds: string[];
  /** A tag that has child tags, and how many tags it expands to with its descendants. */
  parentTag: { id: string; name: string; expandsTo: number };
}

/** The ids of the starter types every new group has: `Item`, and `Location` (a location type). */
export async function starterTypes(
  pool: pg.Pool,
  groupId: string,
): Promise<{ itemTypeId: string; locationTypeId: string }> {
  const { rows: types } = await pool.query<{ id: string; is_location: boolean }>(
    `SELECT id, is_location FROM entity_types WHERE group_id = $1 AND name IN ('Item', 'Location')`,
    [groupId],
  );
  const itemTypeId = types.find((type) => !type.is_location)?.id;
  const locationTypeId = types.find((type) => type.is_location)?.id;
  if (!itemTypeId || !locationTypeId) throw new Error('the group has no Item and Location types');
  return { itemTypeId, locationTypeId };
}

/** A well-mixed, non-negative bigint from a number and a salt: deterministic "randomness". */
const mix = (expression: string, salt: number): string =>
  `(hashint8extended((${expression})::bigint, ${salt}) & 9223372036854775807)`;

/** `array[1 + mix % length]`: an element picked by a mixed number. */
const pick = (array: string, expression: string, salt: number): string =>
  `(${array})[1 + ${mix(expression, salt)} % cardinality(${array})]`;

/** Items are inserted this many at a time, with their tags and fields. */
const BATCH = 10_000;

export async function seedInventory(pool: pg.Pool, plan: SeedPlan): Promise<SeedResult> {
  const started = performance.now();
  const elapsed = (): string => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  // One session throughout: the numbered parents live in a temporary table.
  const client = await pool.connect();
  const query = <R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
    client.query<R>(sql, params);
  try {
    const { rows: before } = await query<{ n: number; top: number }>(
      'SELECT count(*)::int AS n, coalesce(max(asset_id), 0)::int AS top FROM entities WHERE group_id = $1',
      [plan.groupId],
    );
    const toAdd = Math.max(plan.entities - before[0].n, 0);
    const locations = Math.max(3, Math.round(toAdd * 0.02));
    const sites = Math.max(1, Math.round(locations * 0.01));
    const rooms = Math.max(1, Math.round(locations * 0.09));
    const leaves = locations - sites - rooms;
    const items = toAdd - locations;
    const containers = Math.max(1, Math.round(items * 0.03));
    plan.progress(
      `seeding ${toAdd} entities (${sites} sites > ${rooms} rooms > ${leaves} shelves, ` +
        `${items} items) next to the ${before[0].n} the group starts with`,
    );

    const tagIds = await createTags(client, plan.groupId);
    const { rows: parentTag } = await query<{ id: string }>(
      `SELECT id FROM tags WHERE group_id = $1 AND name = 'Department'`,
      [plan.groupId],
    );

    await query(
      'CREATE TEMP TABLE bench_parents (level int, n int, id uuid, PRIMARY KEY (level, n))',
    );
    let assetBase = before[0].top;
    /**
     * Inserts `count` entities from a SELECT list over `a`, the asset id (base + 1 to base +
     * count), which seeds every pick, and `i`, the number within this call (1 to count), and
     * numbers them as parents of `level` when given. $1 is the group, $2 the type, $3 the base,
     * $4 the count; `params` continue at $5.
     */
    const insertEntities = async (
      count: number,
      typeId: string,
      columns: string,
      params: unknown[],
      level?: number,
    ): Promise<void> => {
      await query(
        `INSERT INTO entities (group_id, entity_type_id, parent_id, name, description,
           manufacturer, serial_number, model_number, notes, quantity, purchase_price, archived,
           asset_id)
         SELECT $1, $2, ${columns}, a
         FROM generate_series($3::bigint + 1, $3::bigint + $4) AS a
         CROSS JOIN LATERAL (SELECT a - $3::bigint AS i) AS numbered`,
        [plan.groupId, typeId, assetBase, count, ...params],
      );
      if (level !== undefined) {
        await query(
          `INSERT INTO bench_parents SELECT $1, asset_id - $2, id FROM entities
           WHERE group_id = $3 AND asset_id > $2 AND asset_id <= $2 + $4`,
          [level, assetBase, plan.groupId, count],
        );
      }
      if (typeId === plan.itemTypeId) {
        await tagAndDescribe(client, plan.groupId, assetBase, assetBase + count, tagIds);
      }
      assetBase += count;
    };
    const parentIn = (level: number, count: number, salt: number): string =>
      `(SELECT id FROM bench_parents WHERE level = ${level} AND n = 1 + ${mix('a', salt)} % ${count})`;
    // manufacturer, serial, model, notes, quantity, price, archived of a location
    const place = `'', '', '', '', 1, 0, false`;

    await insertEntities(
      sites,
      plan.locationTypeId,
      `NULL::uuid, 'Site ' || i, 'Building ' || i || ' of the campus', ${place}`,
      [],
      1,
    );
    await insertEntities(
      rooms,
      plan.locationTypeId,
      `${parentIn(1, sites, 1)}, ${pick('$5::text[]', 'a', 2)} || ' ' || i,
       'On floor ' || (i % 5), ${place}`,
      [ROOM_KINDS],
      2,
    );
    await insertEntities(
      leaves,
      plan.locationTypeId,
      `${parentIn(2, rooms, 3)}, ${pick('$5::text[]', 'a', 4)} || ' ' || i,
       'Numbered left to right', ${place}`,
      [LEAF_KINDS],
      3,
    );
    plan.progress(`  ${locations} locations (${elapsed()})`);

    // Items: $5 adjectives, $6 nouns, $7 manufacturers, $8 colours, $9 remarks.
    const noun = pick('$6::text[]', 'a', 12);
    const itemColumns = (parent: string, name: string): string => `${parent}, ${name},
       'A ' || ${pick('$8::text[]', 'a', 13)} || ' ' || lower(${noun}) || '. ' || ${pick('$9::text[]', 'a', 14)},
       CASE WHEN ${mix('a', 15)} % 5 = 0 THEN '' ELSE ${pick('$7::text[]', 'a', 16)} END,
       'SN-' || upper(substr(md5(a::text), 1, 12)),
       upper(substr(md5(${noun}), 1, 2)) || '-' || (${mix('a', 17)} % 9000 + 1000),
       CASE WHEN ${mix('a', 18)} % 5 = 0 THEN ${pick('$9::text[]', 'a', 19)} ELSE '' END,
       CASE WHEN ${mix('a', 20)} % 10 = 0 THEN 2 + ${mix('a', 21)} % 9 ELSE 1 END,
       round((${mix('a', 22)} % 50000) / 100.0, 2),
       ${mix('a', 23)} % 200 = 0`;
    const words = [ADJECTIVES, NOUNS, BRANDS, COLOURS, REMARKS];
    // Containers: the same columns, with a container's name from $5.
    await insertEntities(
      containers,
      plan.itemTypeId,
      itemColumns(parentIn(3, leaves, 10), `${pick('$5::text[]', 'a', 11)} || ' ' || i`),
      [CONTAINERS, ...words.slice(1)],
      4,
    );
    let done = locations + containers;
    plan.progress(`  ${done}/${toAdd} entities (${elapsed()})`);
    const name =
      `${pick('$5::text[]', 'a', 24)} || ' ' || ${noun} || ` +
      `CASE WHEN ${mix('a', 25)} % 3 = 0 THEN ' Mk ' || (2 + ${mix('a', 26)} % 8) ELSE '' END`;
    const parent = `CASE WHEN ${mix('a', 27)} % 100 = 0 THEN NULL
      WHEN ${mix('a', 27)} % 10 = 1 THEN ${parentIn(4, containers, 28)}
      ELSE ${parentIn(3, leaves, 29)} END`;
    // Progress about ten times, however many batches.
    let reported = done;
    while (done < toAdd) {
      const count = Math.min(BATCH, toAdd - done);
      await insertEntities(count, plan.itemTypeId, itemColumns(parent, name), words);
      done += count;
      if (done - reported >= toAdd / 10 || done === toAdd) {
        plan.progress(`  ${done}/${toAdd} entities (${elapsed()})`);
        reported = done;
      }
    }

    // The searched words: chosen among this seed's items by a hash of the asset id.
    const planted = (salt: number, limit: number): string =>
      `id IN (SELECT id FROM entities WHERE group_id = $1 AND entity_type_id = $2
         AND NOT archived AND asset_id > $3 ORDER BY ${mix('asset_id', salt)}, asset_id
         LIMIT ${limit})`;
    await query(
      `UPDATE entities SET description = description || ' ' || $4 WHERE ${planted(60, COMMON_WORD_MATCHES)}`,
      [plan.groupId, plan.itemTypeId, before[0].top, COMMON_WORD],
    );
    await query(`UPDATE entities SET name = name || ' ' || $4 WHERE ${planted(61, 1)}`, [
      plan.groupId,
      plan.itemTypeId,
      before[0].top,
      RARE_WORD,
    ]);

    const { rows: leafRows } = await query<{ id: string }>(
      'SELECT id FROM bench_parents WHERE level = 3 ORDER BY n LIMIT 200',
    );
    await query('DROP TABLE bench_parents');
    // The steady state autovacuum reaches after a bulk load: statistics, and a visibility map
    // that lets counts be answered from indexes.
    plan.progress(`  VACUUM ANALYZE (${elapsed()})`);
    await query('VACUUM ANALYZE');
    // The load's pages written out now, not by a spread checkpoint while the first scenarios run
    // (a role that may not, neither superuser nor pg_checkpoint, leaves it to the server).
    plan.progress(`  CHECKPOINT (${elapsed()})`);
    await query('CHECKPOINT').catch((error: { code?: string }) => {
      if (error.code !== '42501') throw error;
      plan.progress('  CHECKPOINT not allowed for this role: left to the server');
    });
    const { rows: counts } = await query<
      Omit<SeedResult, 'seconds' | 'leafLocationIds' | 'tagIds' | 'parentTag'>
    >(
      `SELECT
         (SELECT count(*)::int FROM entities WHERE group_id = $1) AS entities,
         (SELECT count(*)::int FROM entities WHERE group_id = $1 AND entity_type_id = $2) AS locations,
         (SELECT count(*)::int FROM entities WHERE group_id = $1 AND entity_type_id <> $2) AS items,
         (SELECT count(*)::int FROM entities WHERE group_id = $1 AND archived) AS archived,
         (SELECT count(*)::int FROM tags WHERE group_id = $1) AS tags,
         (SELECT count(*)::int FROM entity_tags) AS "entityTags",
         (SELECT count(*)::int FROM entity_fields) AS "entityFields"`,
      [plan.groupId, plan.locationTypeId],
    );
    const { rows: expanded } = await query<{ n: number }>(
      `WITH RECURSIVE tree(id) AS (
         SELECT id FROM tags WHERE id = $1 UNION SELECT t.id FROM tags t JOIN tree ON t.parent_id = tree.id
       ) SELECT count(*)::int AS n FROM tree`,
      [parentTag[0].id],
    );
    plan.progress(`  done (${elapsed()})`);
    return {
      ...counts[0],
      seconds: (performance.now() - started) / 1000,
      leafLocationIds: leafRows.map((row) => row.id),
      tagIds,
      parentTag: { id: parentTag[0].id, name: 'Department', expandsTo: expanded[0].n },
    };
  } finally {
    client.release();
  }
}

/** The tags of the benchmark next to the group's starter tags; returns every tag id of the group. */
async function createTags(client: pg.PoolClient, groupId: string): Promise<string[]> {
  const colours = (names: string[]): string[] =>
    names.map((_, index) => TAG_COLOURS[index % TAG_COLOURS.length]);
  const parents = Object.keys(TAG_TREE);
  const { rows } = await client.query<{ id: string; name: string }>(
    `INSERT INTO tags (group_id, name, color) SELECT $1, name, color
     FROM unnest($2::text[], $3::text[]) AS tag(name, color) RETURNING id, name`,
    [groupId, [...parents, ...FLAT_TAGS], colours([...parents, ...FLAT_TAGS])],
  );
  for (const { id, name } of rows.filter((row) => parents.includes(row.name))) {
    await client.query(
      `INSERT INTO tags (group_id, parent_id, name, description)
       SELECT $1, $2, name, 'Part of ' || $3 FROM unnest($4::text[]) AS name`,
      [groupId, id, name, TAG_TREE[name]],
    );
  }
  const all = await client.query<{ id: string }>(
    'SELECT id FROM tags WHERE group_id = $1 ORDER BY name, id',
    [groupId],
  );
  return all.rows.map((row) => row.id);
}

/**
 * 0 to 3 tags on every item with an asset id in (from, to], and one or two custom text
 * fields on about 30% of them.
 */
async function tagAndDescribe(
  client: pg.PoolClient,
  groupId: string,
  from: number,
  to: number,
  tagIds: string[],
): Promise<void> {
  await client.query(
    `INSERT INTO entity_tags (entity_id, tag_id)
     SELECT e.id, ${pick('$4::uuid[]', 'e.asset_id * 4 + j', 30)}
     FROM entities e CROSS JOIN LATERAL generate_series(1, (${mix('e.asset_id', 31)} % 4)::int) AS j
     WHERE e.group_id = $1 AND e.asset_id > $2 AND e.asset_id <= $3
     ON CONFLICT DO NOTHING`,
    [groupId, from, to, tagIds],
  );
  await client.query(
    `INSERT INTO entity_fields (entity_id, name, type, text_value)
     SELECT e.id, f.name, 'text', CASE f.name
         WHEN 'Color' THEN ${pick('$5::text[]', 'e.asset_id', 43)}
         WHEN 'Voltage' THEN ${pick(`ARRAY['5 V', '12 V', '110 V', '230 V']`, 'e.asset_id', 44)}
         WHEN 'Owner' THEN ${pick('$6::text[]', 'e.asset_id', 45)}
         WHEN 'Warranty Provider' THEN ${pick('$7::text[]', 'e.asset_id', 46)}
         WHEN 'Purchase Order' THEN 'PO-' || (${mix('e.asset_id', 47)} % 90000 + 10000)
         ELSE '2027-' || lpad((1 + ${mix('e.asset_id', 48)} % 12)::text, 2, '0') || '-15'
       END
     FROM entities e CROSS JOIN LATERAL (
       SELECT ($4::text[])[1 + (${mix('e.asset_id', 40)} + j) % cardinality($4::text[])] AS name
       FROM generate_series(1, 1 + (${mix('e.asset_id', 41)} % 2)::int) AS j
     ) f
     WHERE e.group_id = $1 AND e.asset_id > $2 AND e.asset_id <= $3
       AND ${mix('e.asset_id', 42)} % 10 < 3`,
    [groupId, from, to, FIELD_NAMES, COLOURS, PEOPLE, WARRANTY_PROVIDERS],
  );
}
