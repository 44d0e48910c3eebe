import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type pg from 'pg';
import { DATABASE_LOGIC, MAINTAINED_TABLES } from '../src/database-logic.js';
import { triggersOf } from '../src/platform/database/schema/database-logic.js';
import { nameOrder } from '../src/platform/database/name-order.js';
import {
  buildEntityFilter,
  type EntityFilter,
} from '../src/inventory/entities/views/entity-filter.js';
import { SUMMARY, pageOfViews } from '../src/inventory/entities/views/entity-view.sql.js';
import {
  GROUP_TOTALS,
  LOCATION_TOTALS,
  TAG_TOTALS,
} from '../src/inventory/statistics/statistics.sql.js';
import { connectionPool, createBenchDatabase } from './database.js';
import { rawCreate, runRawLoad, type RawLoadResult } from './raw.js';
import { seedInventory, starterTypes } from './seed.js';
import { positive } from './settings.js';
import { signUp } from './session.js';
import { startTroveProcess } from './trove-process.js';
import { loadTroveBuild } from './trove.js';

/**
 * What each maintained table (docs/derived-data.md) is worth: every statement of Trove that
 * reads one, run as Trove runs it ("kept") and rewritten to compute the same answer from the
 * tables it is derived from ("computed"), on one seeded inventory, in alternating rounds; then
 * the raw create with each table's triggers on and off. Raw SQL only, no HTTP: a statement's
 * rate is the ceiling of the route that sends it, so a computed statement slower than the route
 * is today moves the route's line by at least that much.
 *
 * `npm run build && npx tsc -p bench/tsconfig.json && node dist/bench/bench/derived-tables.js`
 * with `BENCH_ENTITIES` (1,000,000), `DATABASE_URL`, `BENCH_ROUNDS` (2), `BENCH_DURATION` (8 s
 * a round), `BENCH_CONNECTIONS` (32); `BENCH_KEEP_DATABASE=1` keeps the seeded database (its URL
 * is printed) and `BENCH_SEEDED_URL=<that URL>` measures it again without seeding;
 * `BENCH_TABLE=<table>` measures only what concerns that table.
 */

interface Settings {
  entities: number;
  rounds: number;
  seconds: number;
  connections: number;
  databaseUrl: string | undefined;
  seededUrl: string | undefined;
  keep: boolean;
  only: string | undefined;
}

const settings: Settings = {
  entities: Math.round(positive('BENCH_ENTITIES', 1_000_000)),
  rounds: Math.round(positive('BENCH_ROUNDS', 2)),
  seconds: positive('BENCH_DURATION', 8),
  connections: Math.round(positive('BENCH_CONNECTIONS', 32)),
  databaseUrl: process.env.DATABASE_URL || undefined,
  seededUrl: process.env.BENCH_SEEDED_URL || undefined,
  keep: process.env.BENCH_KEEP_DATABASE === '1',
  only: process.env.BENCH_TABLE || undefined,
};

/** With BENCH_TABLE, only what concerns that maintained table is measured. */
const wanted = (tables: string): boolean =>
  settings.only === undefined || tables.split(', ').includes(settings.only);

const startedAt = performance.now();
const progress = (message: string): void =>
  console.log(`[${((performance.now() - startedAt) / 1000).toFixed(0).padStart(5)} s] ${message}`);

/** Each list shows a page of 50, as Homebox's clients ask for. */
const PAGE_SIZE = 50;

/** The seeded group: its id, a tag with descendants, item ids to get, and where to create. */
interface Inventory {
  groupId: string;
  itemTypeId: string;
  parentTagId: string;
  itemIds: string[];
  leafLocationIds: string[];
  tagIds: string[];
  entities: number;
}

/** A statement of Trove and the same answer computed without one maintained table. */
interface Pair {
  /** The maintained table(s) the computed statement does without. */
  table: string;
  /** The benchmark line whose statement this is. */
  line: string;
  kept: string;
  computed: string;
  /** Parameters of the n-th call. */
  params: (n: number) => unknown[];
}

/** `replace` that insists on replacing something: a statement that changed shape is an error. */
function swap(sql: string, from: string | RegExp, to: string): string {
  const swapped = sql.replace(from, to);
  if (swapped === sql) throw new Error(`the statement no longer contains ${String(from)}`);
  return swapped;
}

/** The list's total counted from the entities instead of read from entity_counts. */
function countedTotal(filter: EntityFilter): EntityFilter {
  if (!filter.kept) throw new Error('the list keeps no total');
  return {
    ...filter,
    kept: {
      ...filter.kept,
      total: `(SELECT count(*)::int FROM ${filter.from} JOIN entity_types t ON t.id = e.entity_type_id
        WHERE ${filter.where})`,
    },
  };
}

/** The item counts of the views summed from the child entities instead of entity_child_items. */
const countedItems = (sql: string): string =>
  swap(
    swap(
      sql,
      'sum(i.quantity)::float8 AS items FROM entity_child_items i',
      'sum(i.quantity)::float8 AS items FROM entities i',
    ),
    'WHERE i.parent_id = ANY(ARRAY(SELECT id FROM shown_ids)) AND NOT ct.is_location',
    'WHERE i.parent_id = ANY(ARRAY(SELECT id FROM shown_ids)) AND NOT ct.is_location AND NOT i.archived',
  );

/** Group totals from the entities themselves, without entity_counts. */
const GROUP_TOTALS_COMPUTED = swap(
  GROUP_TOTALS,
  /WITH counts AS \([^]*?WHERE c\.group_id = \$1\n\)/,
  `WITH counts AS (
  SELECT t.is_location, e.archived, count(*) AS entities,
    coalesce(sum(e.purchase_price * e.quantity::numeric), 0) AS item_value,
    count(*) FILTER (WHERE e.lifetime_warranty) AS lifetime_warranties
  FROM entities e JOIN entity_types t ON t.id = e.entity_type_id WHERE e.group_id = $1
  GROUP BY t.is_location, e.archived
)`,
);

/** Location totals summed from the child entities, without entity_child_values. */
const LOCATION_TOTALS_COMPUTED = swap(
  swap(
    LOCATION_TOTALS,
    'JOIN entity_child_values v ON v.parent_id = l.id',
    'JOIN entities v ON v.parent_id = l.id',
  ),
  /sum\(v\.value\)/g,
  'sum(v.purchase_price)',
);

/** Tag totals summed over the tagged entities, without tag_values. */
const TAG_TOTALS_COMPUTED = `SELECT g.id, g.name, v.value::float8 AS total
FROM tags g JOIN (
  SELECT et.tag_id, count(*) AS entities, sum(e.purchase_price) AS value
  FROM entity_tags et JOIN entities e ON e.id = et.entity_id
  WHERE e.group_id = $1 GROUP BY et.tag_id
) v ON v.tag_id = g.id
WHERE g.group_id = $1 AND v.entities > 0
ORDER BY total DESC, g.name, g.id`;

/**
 * The list of one tag with the tag expanded to its descendants and their links read, as a list
 * filtered by tags would be without tag_matches and tag_match_counts: the matches gathered once,
 * counted and paged (pageOfViews without anything kept).
 */
function tagListComputed(groupId: string, tagId: string): { sql: string; params: unknown[] } {
  const filter: EntityFilter = {
    from: 'entities e',
    where: `e.group_id = $1 AND NOT t.is_location AND NOT e.archived
      AND e.id = ANY(ARRAY(SELECT et.entity_id FROM entity_tags et WHERE et.tag_id = ANY(ARRAY(
        WITH RECURSIVE expanded(id) AS (
          SELECT g.id FROM tags g WHERE g.id = $2::uuid AND g.group_id = $1
          UNION SELECT c.id FROM tags c JOIN expanded x ON c.parent_id = x.id
        ) SELECT id FROM expanded))))`,
    params: [groupId, tagId],
  };
  return {
    sql: pageOfViews(filter, nameOrder('e'), '$3', '$4'),
    params: [groupId, tagId, PAGE_SIZE, 0],
  };
}

function pairs(inventory: Inventory): Pair[] {
  const { groupId, itemIds, parentTagId } = inventory;
  const list = buildEntityFilter(groupId, {});
  const listParams = [...list.params, PAGE_SIZE, 0];
  const listSql = pageOfViews(list, nameOrder('e'), '$2', '$3');
  const tagged = buildEntityFilter(groupId, { tags: [parentTagId] });
  const taggedSql = pageOfViews(tagged, nameOrder('e'), '$3', '$4');
  const tagComputed = tagListComputed(groupId, parentTagId);
  const get = (n: number): unknown[] => [groupId, itemIds[n % itemIds.length]];
  return [
    {
      table: 'entity_counts',
      line: 'list (page of 50): its total',
      kept: listSql,
      computed: pageOfViews(countedTotal(list), nameOrder('e'), '$2', '$3'),
      params: () => listParams,
    },
    {
      table: 'entity_counts',
      line: 'statistics',
      kept: GROUP_TOTALS,
      computed: GROUP_TOTALS_COMPUTED,
      params: () => [groupId],
    },
    {
      table: 'entity_child_items',
      line: 'list (page of 50): item counts of the locations shown',
      kept: listSql,
      computed: countedItems(listSql),
      params: () => listParams,
    },
    {
      table: 'entity_child_items',
      line: 'get: item counts of the ancestors and child locations',
      kept: SUMMARY,
      computed: countedItems(SUMMARY),
      params: get,
    },
    {
      table: 'entity_child_values',
      line: 'statistics/locations (each build of the kept response)',
      kept: LOCATION_TOTALS,
      computed: LOCATION_TOTALS_COMPUTED,
      params: () => [groupId],
    },
    {
      table: 'tag_values',
      line: 'statistics/tags',
      kept: TAG_TOTALS,
      computed: TAG_TOTALS_COMPUTED,
      params: () => [groupId],
    },
    {
      table: 'tag_matches, tag_match_counts',
      line: 'list tags=Department',
      kept: taggedSql,
      computed: tagComputed.sql,
      params: () => tagComputed.params,
    },
  ];
}

/** The maintained tables whose triggers a create fires, each measured switched off. */
const MEASURED_ON_CREATE = ['entity_counts', 'tag_values', 'tag_matches', 'location_versions'];

/**
 * The triggers that keep each of them (with the tables kept beside it), switched off together for
 * the create: those of its definition (`src/database-logic.ts`) that are on the tables it is
 * derived from, not on other maintained tables (switching off `tag_matches`' triggers stops its
 * counts too).
 */
const TRIGGERS: { tables: string; triggers: [table: string, trigger: string][] }[] =
  MEASURED_ON_CREATE.map((table) => {
    const logic = DATABASE_LOGIC.find((candidate) => candidate.tables.includes(table))!;
    return {
      tables: logic.tables.join(', '),
      triggers: triggersOf(logic)
        .filter(({ table: on }) => !MAINTAINED_TABLES.includes(on))
        .map(({ name, table: on }): [string, string] => [on, name]),
    };
  });

async function seeded(pool: pg.Pool): Promise<Inventory> {
  const { rows: groups } = await pool.query<{ group_id: string; n: number }>(
    'SELECT group_id, count(*)::int AS n FROM entities GROUP BY group_id ORDER BY n DESC LIMIT 1',
  );
  if (!groups[0]) throw new Error('the seeded database holds no entities');
  const groupId = groups[0].group_id;
  const one = async <R extends pg.QueryResultRow>(sql: string): Promise<R[]> =>
    (await pool.query<R>(sql, [groupId])).rows;
  const [itemType] = await one<{ id: string }>(
    `SELECT id FROM entity_types WHERE group_id = $1 AND name = 'Item'`,
  );
  const [parentTag] = await one<{ id: string }>(
    `SELECT id FROM tags WHERE group_id = $1 AND name = 'Department'`,
  );
  // Items at the bottom of the longest paths and in leaf locations, spread over the inventory.
  const items = await one<{ id: string }>(
    `SELECT e.id FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
     WHERE e.group_id = $1 AND NOT t.is_location AND e.asset_id % 997 = 0 LIMIT 200`,
  );
  const leaves = await one<{ id: string }>(
    `SELECT l.id FROM entities l JOIN entity_types t ON t.id = l.entity_type_id AND t.is_location
     WHERE l.group_id = $1 AND NOT EXISTS (SELECT 1 FROM entities c JOIN entity_types ct
       ON ct.id = c.entity_type_id AND ct.is_location WHERE c.parent_id = l.id) LIMIT 500`,
  );
  const tags = await one<{ id: string }>('SELECT id FROM tags WHERE group_id = $1');
  if (!itemType || !parentTag || items.length === 0 || leaves.length === 0) {
    throw new Error('the database does not hold the benchmark inventory');
  }
  return {
    groupId,
    itemTypeId: itemType.id,
    parentTagId: parentTag.id,
    itemIds: items.map((row) => row.id),
    leafLocationIds: leaves.map((row) => row.id),
    tagIds: tags.map((row) => row.id),
    entities: groups[0].n,
  };
}

/** Creates a database, lets Trove migrate it and register the user, and seeds the inventory. */
async function seedDatabase(cleanups: (() => Promise<unknown>)[]): Promise<string> {
  const build = await loadTroveBuild();
  const database = await createBenchDatabase(build, settings.databaseUrl, () => undefined);
  if (settings.keep && database.kind === 'external') {
    progress(`seeding ${database.url}; it is kept (BENCH_SEEDED_URL=${database.url} to reuse it)`);
  } else {
    if (settings.keep) progress('an embedded database is not kept: set DATABASE_URL to keep one');
    cleanups.push(() => database.dispose());
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-data-'));
  const trove = await startTroveProcess({
    databaseUrl: database.url,
    dataDir,
    env: { TROVE_LOG_LEVEL: 'warn' },
  });
  try {
    const session = await signUp(trove.baseUrl);
    const pool = connectionPool(database.url, 2);
    try {
      const { itemTypeId, locationTypeId } = await starterTypes(pool, session.groupId);
      await seedInventory(pool, {
        groupId: session.groupId,
        itemTypeId,
        locationTypeId,
        entities: settings.entities,
        progress,
      });
    } finally {
      await pool.end();
    }
  } finally {
    await trove.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return database.url;
}

const rate = (result: RawLoadResult): string =>
  `${result.requestsPerSecond.toFixed(1)} req/s (p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms` +
  `${result.errors ? `, ${result.errors} errors: ${result.firstError}` : ''})`;

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

interface Measured {
  what: string;
  line: string;
  kept: number[];
  computed: number[];
  keptP50: number[];
  computedP50: number[];
}

/** Both statements of each pair answer the same: the maintained tables are in step. */
async function checkInStep(pool: pg.Pool, candidates: Pair[]): Promise<void> {
  for (const pair of candidates) {
    const [kept, computed] = await Promise.all([
      pool.query(pair.kept, pair.params(0)),
      pool.query(pair.computed, pair.params(0)),
    ]);
    // As sets of rows: the ancestors a view carries come in no particular order.
    const rows = (result: pg.QueryResult): string[] =>
      result.rows.map((row) => JSON.stringify(row)).sort();
    if (!isDeepStrictEqual(rows(kept), rows(computed))) {
      throw new Error(`${pair.table} (${pair.line}): the computed statement answers differently`);
    }
  }
}

async function measureReads(pool: pg.Pool, candidates: Pair[]): Promise<Measured[]> {
  const measured: Measured[] = [];
  await checkInStep(pool, candidates);
  for (const pair of candidates) {
    const result: Measured = {
      what: pair.table,
      line: pair.line,
      kept: [],
      computed: [],
      keptP50: [],
      computedP50: [],
    };
    for (let round = 1; round <= settings.rounds; round++) {
      for (const variant of ['kept', 'computed'] as const) {
        const text = variant === 'kept' ? pair.kept : pair.computed;
        const name = `derived_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
        const load = await runRawLoad(settings.connections, settings.seconds, (n) =>
          pool.query({ name, text, values: pair.params(n) }),
        );
        if (load.errors) throw new Error(`${pair.table} ${variant}: ${load.firstError}`);
        result[variant].push(load.requestsPerSecond);
        result[variant === 'kept' ? 'keptP50' : 'computedP50'].push(load.p50);
        progress(`  ${pair.table}, ${pair.line}, round ${round}, ${variant}: ${rate(load)}`);
      }
    }
    measured.push(result);
  }
  return measured;
}

/** Items directly inside the crowded location: a warehouse's floor, a drawer of parts. */
const CROWDED_ITEMS = 50_000;

/**
 * The shape the item counts of `entity_child_items` were made for, which the seeded inventory
 * (about 50 items a shelf) lacks: one location with CROWDED_ITEMS items directly inside. Added
 * once (a reused database keeps it), after the other reads, so that they measure the seed alone.
 */
async function crowdedLocation(pool: pg.Pool, inventory: Inventory): Promise<Pair> {
  const { groupId, itemTypeId } = inventory;
  const name = 'Bench crowded location';
  let [location] = (
    await pool.query<{ id: string }>(
      'SELECT id FROM entities WHERE group_id = $1 AND name = $2 AND parent_id IS NULL',
      [groupId, name],
    )
  ).rows;
  if (!location) {
    progress(`  adding a location with ${CROWDED_ITEMS} items directly inside`);
    [location] = (
      await pool.query<{ id: string }>(
        `INSERT INTO entities (group_id, entity_type_id, name, asset_id)
         SELECT $1, t.id, $2, entity_next_asset_id($1) FROM entity_types t
         WHERE t.group_id = $1 AND t.is_location AND t.name = 'Location' RETURNING id`,
        [groupId, name],
      )
    ).rows;
    await pool.query(
      `INSERT INTO entities (group_id, entity_type_id, parent_id, name, quantity, purchase_price, asset_id)
       SELECT $1, $2, $3, 'Crowded item ' || a, 1 + a % 3, a % 100, base.top + a
       FROM (SELECT max(asset_id) AS top FROM entities WHERE group_id = $1) base,
            generate_series(1, $4::int) AS a`,
      [groupId, itemTypeId, location.id, CROWDED_ITEMS],
    );
    await pool.query('ANALYZE entities');
  }
  const { rows: items } = await pool.query<{ id: string }>(
    'SELECT id FROM entities WHERE parent_id = $1 ORDER BY id LIMIT 100',
    [location.id],
  );
  return {
    table: 'entity_child_items',
    line: `get of an item in a location of ${CROWDED_ITEMS} items`,
    kept: SUMMARY,
    computed: countedItems(SUMMARY),
    params: (n) => [groupId, items[n % items.length].id],
  };
}

async function setTriggers(
  pool: pg.Pool,
  triggers: [string, string][],
  enabled: boolean,
): Promise<void> {
  for (const [table, trigger] of triggers) {
    await pool.query(`ALTER TABLE ${table} ${enabled ? 'ENABLE' : 'DISABLE'} TRIGGER ${trigger}`);
  }
}

async function measureCreates(pool: pg.Pool, inventory: Inventory): Promise<Measured[]> {
  const measured = TRIGGERS.filter(({ tables }) => wanted(tables));
  const variants = [{ tables: 'none (all kept)', triggers: [] as [string, string][] }, ...measured];
  const rates = new Map<string, { rps: number[]; p50: number[] }>();
  let made = 0;
  let created: string[] = [];
  const create = async (): Promise<void> => {
    const k = made++;
    const { tagIds, leafLocationIds } = inventory;
    const id = await rawCreate(pool, {
      groupId: inventory.groupId,
      entityTypeId: inventory.itemTypeId,
      parentId: leafLocationIds[k % leafLocationIds.length],
      name: `Derived bench item ${k}`,
      tagIds: [tagIds[k % tagIds.length], tagIds[(7 * k + 3) % tagIds.length]].filter(
        (id, at, all) => all.indexOf(id) === at,
      ),
    });
    created.push(id);
  };
  for (let round = 1; round <= settings.rounds; round++) {
    for (const variant of variants) {
      await setTriggers(pool, variant.triggers, false);
      try {
        const load = await runRawLoad(settings.connections, settings.seconds, create);
        if (load.errors) throw new Error(`create without ${variant.tables}: ${load.firstError}`);
        const entry = rates.get(variant.tables) ?? { rps: [], p50: [] };
        entry.rps.push(load.requestsPerSecond);
        entry.p50.push(load.p50);
        rates.set(variant.tables, entry);
        progress(`  create, round ${round}, triggers off for ${variant.tables}: ${rate(load)}`);
      } finally {
        // Taken away while the same triggers are off, so that the maintained tables, which
        // never saw these rows come, do not see them go either.
        await pool.query('DELETE FROM entities WHERE id = ANY($1::uuid[])', [created]);
        created = [];
        await setTriggers(pool, variant.triggers, true);
      }
    }
  }
  const all = rates.get('none (all kept)');
  if (!all) throw new Error('no create was measured');
  return measured.map(({ tables }) => {
    const off = rates.get(tables);
    if (!off) throw new Error(`no create was measured without ${tables}`);
    return {
      what: tables,
      line: 'create',
      kept: all.rps,
      computed: off.rps,
      keptP50: all.p50,
      computedP50: off.p50,
    };
  });
}

const list = (values: number[], digits = 1): string =>
  values.map((v) => v.toFixed(digits)).join(', ');

function table(title: string, columns: [string, string], rows: Measured[]): string {
  const lines = [
    `## ${title}`,
    '',
    `| maintained table | line | ${columns[0]}, req/s per round | ${columns[1]}, req/s per round | ratio of means | p50 ms (${columns[0]} → ${columns[1]}) |`,
    '|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.what} | ${row.line} | ${list(row.kept)} | ${list(row.computed)} | ` +
        `${(mean(row.computed) / mean(row.kept)).toFixed(3)} | ${mean(row.keptP50).toFixed(1)} → ${mean(row.computedP50).toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const url = settings.seededUrl ?? (await seedDatabase(cleanups));
    const pool = connectionPool(url, settings.connections);
    cleanups.push(() => {
      // pool.end() resolves before its connections have closed: a server stopped right after
      // (the embedded one) ends them, which is no error of the benchmark.
      pool.on('error', () => undefined);
      return pool.end();
    });
    const inventory = await seeded(pool);
    const { rows: version } = await pool.query<{ server_version: string }>('SHOW server_version');
    progress(
      `${inventory.entities} entities in one group, PostgreSQL ${version[0].server_version}; ` +
        `${settings.rounds} rounds of ${settings.seconds} s, ${settings.connections} connections`,
    );
    progress('reads: each statement as Trove runs it (kept) and computed without the table');
    const reads = await measureReads(
      pool,
      pairs(inventory).filter((pair) => wanted(pair.table)),
    );
    if (wanted('entity_child_items')) {
      reads.push(...(await measureReads(pool, [await crowdedLocation(pool, inventory)])));
    }
    progress("creates: the raw create with each table's triggers switched off");
    const creates = await measureCreates(pool, inventory);
    await checkInStep(pool, pairs(inventory));
    progress('after the creates, every maintained table still answers as its sources do');
    console.log();
    console.log(
      table(
        'Reads: the maintained table read, or the answer computed',
        ['kept', 'computed'],
        reads,
      ),
    );
    console.log();
    console.log(
      table("Create: with the table's triggers, or without", ['kept', 'not kept'], creates),
    );
  } finally {
    for (const cleanup of cleanups.reverse())
      await cleanup().catch((error: unknown) => console.error(error));
  }
}

await main();
