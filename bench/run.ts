import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { measureAttachmentThroughput, type AttachmentThroughput } from './attachments.js';
import { createBenchDatabase } from './database.js';
import { runHttpLoad, type HttpLoad } from './load.js';
import {
  GET_STATEMENT,
  ITEMS_FILTER,
  listStatement,
  rawCreate,
  runRawLoad,
  type RawLoadResult,
} from './raw.js';
import { GROUP_TOTALS, LOCATION_TOTALS, TAG_TOTALS } from '../src/statistics/statistics.sql.js';
import { formatTable, judge, writeResults, type ScenarioResult, type Targets } from './report.js';
import { seedInventory } from './seed.js';
import { SEARCH_WORD } from './words.js';
import { getJson, signUp, type BenchSession } from './session.js';
import { loadTroveBuild } from './trove.js';

/**
 * `npm run bench`: Trove's production build on a fresh database filled with a large inventory,
 * loaded over HTTP, next to the same SQL sent by hand.
 */

const PAGE_SIZE = 50;
const APP_POOL_SIZE = 20;
/** How many different entities the get scenario cycles through. */
const GET_IDS = 300;
const RESULTS_FILE = new URL('../../../bench/results.json', import.meta.url);

interface Settings {
  entities: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  databaseUrl: string | undefined;
}

function positive(name: string, fallback: number, allowZero = false): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero)) {
    throw new Error(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return value;
}

function readSettings(): Settings {
  return {
    entities: Math.round(positive('BENCH_ENTITIES', 100_000)),
    seconds: positive('BENCH_DURATION', 10),
    warmupSeconds: positive('BENCH_WARMUP', 2, true),
    connections: Math.round(positive('BENCH_CONNECTIONS', 32)),
    databaseUrl: process.env.DATABASE_URL || undefined,
  };
}

const startedAt = performance.now();
const clock = (): string => `${((performance.now() - startedAt) / 1000).toFixed(0).padStart(4)} s`;
const progress = (message: string): void => console.log(`[${clock()}] ${message}`);

/** Clean-up steps, run last first, once: on the way out or on Ctrl-C. */
const cleanups: { name: string; run: () => Promise<unknown> }[] = [];
let cleaning: Promise<void> | undefined;
let interrupted = false;
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (let step = cleanups.pop(); step; step = cleanups.pop()) {
      try {
        await step.run();
      } catch (error) {
        console.error(`clean-up (${step.name}) failed:`, error);
      }
    }
  })();
  return cleaning;
}
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping`);
    void cleanUp().finally(() => process.exit(code));
  });
}

async function main(): Promise<void> {
  const settings = readSettings();
  const trove = await loadTroveBuild();

  progress(settings.databaseUrl ? 'creating a database on DATABASE_URL' : 'starting PostgreSQL');
  const database = await createBenchDatabase(trove, settings.databaseUrl, () => undefined);
  cleanups.push({ name: `drop ${database.name}`, run: () => database.dispose() });

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-data-'));
  cleanups.push({
    name: 'remove data dir',
    run: () => rm(dataDir, { recursive: true, force: true }),
  });
  const config = trove.loadConfig({
    TROVE_LOG_LEVEL: 'warn',
    TROVE_DATA_DIR: dataDir,
    TROVE_DATABASE_POOL_SIZE: String(APP_POOL_SIZE),
    TROVE_AUTH_RATE_LIMIT_ENABLED: 'false',
    TROVE_WEB_MAX_UPLOAD_SIZE: '16',
  });
  progress(`starting Trove on ${database.kind} database ${database.name}`);
  const app = await trove.createApp(config, database.url, trove.createLogger(config.log));
  cleanups.push({ name: 'close Trove', run: () => app.close() });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${port}`;

  const session = await signUp(baseUrl);
  const pool = new pg.Pool({ connectionString: database.url, max: settings.connections });
  cleanups.push({ name: 'close pool', run: () => pool.end() });
  const { rows: types } = await pool.query<{ id: string; is_location: boolean }>(
    `SELECT id, is_location FROM entity_types WHERE group_id = $1 AND name IN ('Item', 'Location')`,
    [session.groupId],
  );
  const itemTypeId = types.find((type) => !type.is_location)?.id;
  const locationTypeId = types.find((type) => type.is_location)?.id;
  if (!itemTypeId || !locationTypeId) throw new Error('the group has no Item and Location types');

  const seed = await seedInventory(pool, {
    groupId: session.groupId,
    itemTypeId,
    locationTypeId,
    entities: settings.entities,
    progress,
  });
  const fixtures = await prepareFixtures(pool, baseUrl, session, seed.parentTag.id, itemTypeId);
  await checkRawMatchesApp(pool, baseUrl, session, fixtures.getIds[0]);
  const { rows: version } = await pool.query<{ server_version: string }>('SHOW server_version');

  const measure = async (
    name: string,
    load: Pick<HttpLoad, 'method' | 'paths' | 'bodies'> & { connections?: number },
    targets: Targets,
    raw?: (n: number) => Promise<unknown>,
  ): Promise<ScenarioResult> => {
    const connections = load.connections ?? settings.connections;
    const http = (seconds: number): HttpLoad => ({
      ...load,
      url: baseUrl,
      headers: {
        authorization: session.authorization,
        ...(load.bodies ? { 'content-type': 'application/json' } : {}),
      },
      connections,
      seconds,
    });
    progress(`${name}: Trove over HTTP`);
    if (settings.warmupSeconds > 0) {
      await runHttpLoad(http(settings.warmupSeconds));
      await settle(pool);
    }
    const appResult = await runHttpLoad(http(settings.seconds));
    await settle(pool);
    progress(
      `  ${appResult.requestsPerSecond.toFixed(1)} req/s, p99 ${appResult.p99} ms, ` +
        `${appResult.non2xx + appResult.socketErrors} errors`,
    );
    let rawResult: RawLoadResult | undefined;
    if (raw) {
      progress(`${name}: raw SQL`);
      if (settings.warmupSeconds > 0) {
        await runRawLoad(connections, settings.warmupSeconds, raw);
      }
      rawResult = await runRawLoad(connections, settings.seconds, raw);
      progress(
        `  ${rawResult.requestsPerSecond.toFixed(1)} req/s, p99 ${rawResult.p99.toFixed(1)} ms, ` +
          `${rawResult.errors} errors${rawResult.firstError ? ` (${rawResult.firstError})` : ''}`,
      );
    }
    return judge(name, load.method, load.paths[0], appResult, rawResult, targets);
  };

  const listPath = (query: string): string =>
    `/api/v1/entities?${query ? `${query}&` : ''}page=1&pageSize=${PAGE_SIZE}`;
  const listSql = listStatement(ITEMS_FILTER, PAGE_SIZE, 0);
  const createBodies = Array.from({ length: 64 }, (_, k) => ({
    name: `Bench item ${k}`,
    parentId: seed.leafLocationIds[k % seed.leafLocationIds.length],
    tagIds: [seed.tagIds[k % seed.tagIds.length], seed.tagIds[(7 * k + 3) % seed.tagIds.length]],
  }));

  const results: ScenarioResult[] = [];
  results.push(
    await measure(
      'list',
      { method: 'GET', paths: [listPath('')] },
      { minRatio: 0.5, maxP99: 25 },
      (): Promise<unknown> => pool.query(listSql, [session.groupId]),
    ),
  );
  results.push(
    await measure(
      `list q=${SEARCH_WORD}`,
      { method: 'GET', paths: [listPath(`q=${SEARCH_WORD}`)] },
      {},
    ),
  );
  results.push(
    await measure(
      `list tags=${seed.parentTag.name}`,
      { method: 'GET', paths: [listPath(`tags=${seed.parentTag.id}`)] },
      {},
    ),
  );
  results.push(
    await measure(
      'get',
      { method: 'GET', paths: fixtures.getIds.map((id) => `/api/v1/entities/${id}`) },
      { minRatio: 0.5 },
      (n): Promise<unknown> =>
        pool.query({
          name: 'raw_get',
          text: GET_STATEMENT,
          values: [session.groupId, fixtures.getIds[n % fixtures.getIds.length]],
        }),
    ),
  );
  results.push(await measure('tree', { method: 'GET', paths: ['/api/v1/entities/tree'] }, {}));
  const statistics = [
    ['statistics', '', GROUP_TOTALS],
    ['statistics/locations', '/locations', LOCATION_TOTALS],
    ['statistics/tags', '/tags', TAG_TOTALS],
  ] as const;
  for (const [name, suffix, sql] of statistics) {
    results.push(
      await measure(
        name,
        { method: 'GET', paths: [`/api/v1/groups/statistics${suffix}`] },
        {},
        (): Promise<unknown> => pool.query(sql, [session.groupId]),
      ),
    );
  }
  // One client at a time: the time a single dashboard request takes (target: under 50 ms).
  for (const [name, suffix] of statistics) {
    results.push(
      await measure(
        `${name}, 1 client`,
        { method: 'GET', paths: [`/api/v1/groups/statistics${suffix}`], connections: 1 },
        { maxP99: 50 },
      ),
    );
  }
  results.push(
    await measure(
      'create',
      {
        method: 'POST',
        paths: ['/api/v1/entities'],
        bodies: createBodies.map((body) => JSON.stringify(body)),
      },
      { minRatio: 0.35 },
      async (n): Promise<unknown> => {
        const body = createBodies[n % createBodies.length];
        return rawCreate(pool, {
          groupId: session.groupId,
          entityTypeId: itemTypeId,
          parentId: body.parentId,
          name: `Raw ${body.name}`,
          tagIds: body.tagIds,
        });
      },
    ),
  );

  progress('attachments: 10 MiB upload and download (local disk)');
  const attachments: AttachmentThroughput = await measureAttachmentThroughput(
    baseUrl,
    session,
    fixtures.getIds[0],
  );
  progress(
    `  upload ${attachments.uploadMBps} MB/s (${attachments.uploadMs} ms), ` +
      `download ${attachments.downloadMBps} MB/s (${attachments.downloadMs} ms)`,
  );

  const table = formatTable(results);
  const totalSeconds = (performance.now() - startedAt) / 1000;
  console.log(
    `\nTrove ${config.build.version}, ${seed.entities} entities, ${database.kind} PostgreSQL ` +
      `${version[0].server_version}, Node ${process.version}, ${os.cpus().length} CPUs, ` +
      `${settings.connections} connections, ${settings.seconds} s per run\n`,
  );
  console.log(table);
  console.log(
    `\nattachments, 10 MiB on local disk: upload ${attachments.uploadMBps} MB/s, ` +
      `download ${attachments.downloadMBps} MB/s`,
  );
  await writeResults(RESULTS_FILE, {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}, ${os.cpus().length} CPUs`,
    database: { kind: database.kind, postgres: version[0].server_version },
    settings: {
      entities: settings.entities,
      durationSeconds: settings.seconds,
      warmupSeconds: settings.warmupSeconds,
      connections: settings.connections,
      appPoolSize: APP_POOL_SIZE,
      rawPoolSize: settings.connections,
      pageSize: PAGE_SIZE,
    },
    dataset: {
      entities: seed.entities,
      locations: seed.locations,
      items: seed.items,
      archived: seed.archived,
      tags: seed.tags,
      entityTags: seed.entityTags,
      entityFields: seed.entityFields,
      seedSeconds: Number(seed.seconds.toFixed(1)),
      search: { q: SEARCH_WORD, matches: fixtures.searchMatches },
      tagFilter: {
        tag: seed.parentTag.name,
        expandsTo: seed.parentTag.expandsTo,
        matches: fixtures.tagMatches,
      },
    },
    scenarios: results,
    attachments,
    allTargetsMet: results.every((result) => result.missed.length === 0),
    totalSeconds: Number(totalSeconds.toFixed(1)),
  });
  progress(`results written to bench/results.json; shutting down`);
}

/**
 * Waits until the app has no query left running (autocannon stops without waiting for the
 * requests in flight), so that one measurement does not overlap the next.
 */
async function settle(pool: pg.Pool): Promise<void> {
  for (let quiet = 0, tries = 0; quiet < 3 && tries < 200; tries++) {
    await sleep(50);
    const { rows } = await pool.query<{ busy: number }>(
      `SELECT count(*)::int AS busy FROM pg_stat_activity
       WHERE datname = current_database() AND backend_type = 'client backend'
         AND state <> 'idle' AND pid <> pg_backend_pid()`,
    );
    quiet = rows[0].busy === 0 ? quiet + 1 : 0;
  }
}

interface Fixtures {
  getIds: string[];
  searchMatches: number;
  tagMatches: number;
}

async function prepareFixtures(
  pool: pg.Pool,
  baseUrl: string,
  session: BenchSession,
  parentTagId: string,
  itemTypeId: string,
): Promise<Fixtures> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM entities WHERE group_id = $1 AND entity_type_id = $2 AND NOT archived
     ORDER BY md5(id::text) LIMIT ${GET_IDS}`,
    [session.groupId, itemTypeId],
  );
  type Page = { total: number };
  const search = await getJson<Page>(
    baseUrl,
    session,
    `/api/v1/entities?q=${SEARCH_WORD}&page=1&pageSize=1`,
  );
  const tagged = await getJson<Page>(
    baseUrl,
    session,
    `/api/v1/entities?tags=${parentTagId}&page=1&pageSize=1`,
  );
  progress(
    `q=${SEARCH_WORD} matches ${search.total} items; the tag filter matches ${tagged.total}`,
  );
  return {
    getIds: rows.map((row) => row.id),
    searchMatches: search.total,
    tagMatches: tagged.total,
  };
}

/** The raw SQL must fetch what the app shows: the same page, total and entity. */
async function checkRawMatchesApp(
  pool: pg.Pool,
  baseUrl: string,
  session: BenchSession,
  entityId: string,
): Promise<void> {
  const page = await getJson<{ total: number; items: { id: string; tags: unknown[] }[] }>(
    baseUrl,
    session,
    `/api/v1/entities?page=1&pageSize=${PAGE_SIZE}`,
  );
  const { rows: listed } = await pool.query<{ id: string; position: string | null; total: number }>(
    listStatement(ITEMS_FILTER, PAGE_SIZE, 0),
    [session.groupId],
  );
  const rawIds = listed.filter((row) => row.position !== null).map((row) => row.id);
  if (
    listed[0]?.total !== page.total ||
    rawIds.join() !== page.items.map((item) => item.id).join()
  ) {
    throw new Error('the raw list SQL does not return the page the app returns');
  }
  const entity = await getJson<{ id: string; tags: unknown[]; fields: unknown[] }>(
    baseUrl,
    session,
    `/api/v1/entities/${entityId}`,
  );
  const { rows: got } = await pool.query<{
    id: string;
    depth: number;
    tags: unknown[];
    fields: unknown[];
  }>(GET_STATEMENT, [session.groupId, entityId]);
  const self = got.find((row) => row.depth === 0);
  if (
    !self ||
    self.id !== entity.id ||
    self.tags.length !== entity.tags.length ||
    self.fields.length !== entity.fields.length
  ) {
    throw new Error('the raw get SQL does not return the entity the app returns');
  }
}

try {
  await main();
} catch (error) {
  // After Ctrl-C, what fails is only the interrupted work.
  if (!interrupted) console.error('bench failed:', error);
  process.exitCode = 1;
} finally {
  await cleanUp();
  // Everything is closed; should a stray handle remain, do not hang on it.
  setTimeout(() => process.exit(), 5000).unref();
}
