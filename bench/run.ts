import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { measureAttachmentThroughput, type AttachmentThroughput } from './attachments.js';
import {
  consolePagePairs,
  formatConsolePages,
  judgePage,
  prepareConsoleFixtures,
  type ConsolePageResult,
} from './console-pages.js';
import { connectionPool, createBenchDatabase } from './database.js';
import {
  formatInstanceBackup,
  measureInstanceBackup,
  type InstanceBackupMeasure,
} from './instance-backup.js';
import { measureFrameworkFloor, type FrameworkFloor } from './framework-floor.js';
import { runHttpLoad, type HttpLoad, type HttpLoadResult } from './load.js';
import {
  GET_STATEMENT,
  GROUP_TOTALS,
  LOCATION_TOTALS,
  PATH_STATEMENT,
  TAG_TOTALS,
  listStatement,
  rawCreate,
  rawGet,
  rawPath,
  runRawLoad,
  type RawLoadResult,
} from './raw.js';
import {
  compareSizes,
  formatComparison,
  formatFrameworkFloor,
  formatIdleMemory,
  formatMemory,
  formatStartup,
  formatTable,
  judge,
  readResults,
  writeResults,
  type IdleMemorySummary,
  type MemorySummary,
  type ScenarioResult,
  type SizeComparison,
  type StartupSummary,
  type Targets,
} from './report.js';
import { seedInventory, starterTypes } from './seed.js';
import { positive } from './settings.js';
import { COMMON_WORD, COMMON_WORD_MATCHES, RARE_WORD, SEARCH_WORD } from './words.js';
import { getJson, signUp, type BenchSession } from './session.js';
import { loadTroveBuild } from './trove.js';
import { idleMemoryOf, startTroveProcess, watchMemory } from './trove-process.js';
import {
  formatTelemetryCost,
  measureTelemetryCost,
  type TelemetryCostRow,
} from './telemetry-cost.js';

/**
 * `npm run bench`: Trove's production build, started as `npm start` starts it (a child process,
 * so its memory is its own), on a fresh database filled with a large inventory, loaded over
 * HTTP, next to the same SQL sent by hand.
 */

const PAGE_SIZE = 50;
const APP_POOL_SIZE = 20;
/** How many different entities the get and path scenarios cycle through. */
const GET_IDS = 300;
const BENCH_DIR = new URL('../../../bench/', import.meta.url);
/** The latest run's results, and each size's latest run, for the comparison of sizes. */
const RESULTS_FILE = new URL('results.json', BENCH_DIR);
const resultsOfSize = (entities: number): URL => new URL(`results-${entities}.json`, BENCH_DIR);
/** The sizes the targets compare: the large run's list scenarios keep a share of their rate. */
const SMALL_SIZE = 100_000;
const LARGE_SIZE = 1_000_000;
const MIN_LARGE_SHARE = 0.8;
/** Trove's peak resident set over the whole run, in MB. */
const MAX_RSS_MB = 150;
/** Trove's idle resident set, at most this much above the bare app's (issue 33), in MiB. */
const MAX_IDLE_ABOVE_FRAMEWORK_MIB = 30;
/** Trove's resident set is sampled this often, besides the kernel's high-water mark at the end. */
const RSS_SAMPLE_MS = 250;

interface Settings {
  entities: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  databaseUrl: string | undefined;
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
  const build = await loadTroveBuild();
  const { version: troveVersion } = JSON.parse(
    await readFile(new URL('../package.json', BENCH_DIR), 'utf8'),
  ) as { version: string };

  progress(settings.databaseUrl ? 'creating a database on DATABASE_URL' : 'starting PostgreSQL');
  const database = await createBenchDatabase(build, settings.databaseUrl, () => undefined);
  cleanups.push({ name: `drop ${database.name}`, run: () => database.dispose() });

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-data-'));
  cleanups.push({
    name: 'remove data dir',
    run: () => rm(dataDir, { recursive: true, force: true }),
  });
  progress(`starting Trove (dist/main.js) on ${database.kind} database ${database.name}`);
  const troveEnv = {
    TROVE_LOG_LEVEL: 'warn',
    TROVE_DATABASE_POOL_SIZE: String(APP_POOL_SIZE),
    TROVE_WEB_MAX_UPLOAD_SIZE: '16',
  };
  const startTrove = (): ReturnType<typeof startTroveProcess> =>
    startTroveProcess({ databaseUrl: database.url, dataDir, env: troveEnv, stdout: 'inherit' });
  let trove = await startTrove();
  const firstStartMs = trove.startupMs;
  cleanups.push({ name: 'stop Trove', run: () => trove.stop() });

  const session = await signUp(trove.baseUrl);
  // The raw SQL's connections are set as Trove's are.
  const pool = connectionPool(database.url, settings.connections);
  cleanups.push({ name: 'close pool', run: () => pool.end() });
  const { itemTypeId, locationTypeId } = await starterTypes(pool, session.groupId);

  const seed = await seedInventory(pool, {
    groupId: session.groupId,
    itemTypeId,
    locationTypeId,
    entities: settings.entities,
    progress,
  });

  // Start-up on an existing database (nothing to migrate), then the idle process's memory.
  progress('stopping Trove and starting it again on the seeded database');
  await trove.stop();
  trove = await startTrove();
  const startup: StartupSummary = {
    firstStartMs: Math.round(firstStartMs),
    restartMs: Math.round(trove.startupMs),
  };
  progress(
    `  ready ${startup.restartMs} ms after its start (${startup.firstStartMs} ms the first time)`,
  );
  const idleMiB = await idleMemoryOf(trove.pid);
  progress(`  ${idleMiB.toFixed(1)} MiB resident once idle`);
  // From now until the end: the high-water mark counts from the process's start.
  const memoryWatch = await watchMemory(trove.pid, { intervalMs: RSS_SAMPLE_MS });
  const baseUrl = trove.baseUrl;
  const fixtures = await prepareFixtures(pool, baseUrl, session, seed.parentTag.id, itemTypeId);
  progress(
    `q=${SEARCH_WORD}: ${fixtures.searches[SEARCH_WORD]} matches, q=${RARE_WORD}: ` +
      `${fixtures.searches[RARE_WORD]}, q=${COMMON_WORD}: ${fixtures.searches[COMMON_WORD]}; ` +
      `tags=${seed.parentTag.name}: ${fixtures.tagMatches}`,
  );
  const commonExpected = Math.min(COMMON_WORD_MATCHES, seed.items - seed.archived);
  if (fixtures.searches[RARE_WORD] !== 1 || fixtures.searches[COMMON_WORD] < commonExpected) {
    throw new Error(`the planted words do not match 1 and ${commonExpected} entities`);
  }
  await checkRawMatchesApp(pool, baseUrl, session, fixtures.getIds[0], fixtures.deepIds[0]);
  const { rows: version } = await pool.query<{ server_version: string }>('SHOW server_version');

  const measureRaw = async (
    name: string,
    operation: (n: number) => Promise<unknown>,
    connections = settings.connections,
  ): Promise<RawLoadResult> => {
    progress(`${name}: raw SQL`);
    if (settings.warmupSeconds > 0) {
      await runRawLoad(connections, settings.warmupSeconds, operation);
    }
    const result = await runRawLoad(connections, settings.seconds, operation);
    progress(
      `  ${result.requestsPerSecond.toFixed(1)} req/s, p99 ${result.p99.toFixed(1)} ms, ` +
        `${result.errors} errors${result.firstError ? ` (${result.firstError})` : ''}`,
    );
    return result;
  };
  // The yardstick of every scenario: the raw prepared get, measured once.
  const rawGetResult = await measureRaw('get', (n) =>
    rawGet(pool, session.groupId, fixtures.getIds[n % fixtures.getIds.length]),
  );
  if (rawGetResult.requestsPerSecond === 0) throw new Error('the raw get completed nothing');

  const measure = async (
    name: string,
    load: Pick<HttpLoad, 'method' | 'paths' | 'bodies'> & { connections?: number },
    targets: Targets,
    raw?: ((n: number) => Promise<unknown>) | RawLoadResult,
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
    memoryWatch.windowPeak();
    if (settings.warmupSeconds > 0) {
      await runHttpLoad(http(settings.warmupSeconds));
      await settle(pool);
    }
    const appResult = await runHttpLoad(http(settings.seconds));
    await settle(pool);
    const troveRssMiB = round1(memoryWatch.windowPeak());
    progress(
      `  ${appResult.requestsPerSecond.toFixed(1)} req/s, p99 ${appResult.p99} ms, ` +
        `${appResult.non2xx + appResult.socketErrors} errors`,
    );
    const rawResult = typeof raw === 'function' ? await measureRaw(name, raw, connections) : raw;
    return {
      ...judge(name, load.method, load.paths[0], appResult, rawResult, targets, rawGetResult),
      troveRssMiB,
    };
  };

  const listPath = (query: string): string =>
    `/api/v1/entities?${query ? `${query}&` : ''}page=1&pageSize=${PAGE_SIZE}`;
  const listSql = listStatement(PAGE_SIZE, 0);
  const createBodies = Array.from({ length: 64 }, (_, k) => ({
    name: `Bench item ${k}`,
    parentId: seed.leafLocationIds[k % seed.leafLocationIds.length],
    tagIds: [seed.tagIds[k % seed.tagIds.length], seed.tagIds[(7 * k + 3) % seed.tagIds.length]],
  }));

  const results: ScenarioResult[] = [];
  // Issue 12's targets: ratios to the raw prepared get of the same run.
  results.push(
    await measure(
      'list',
      { method: 'GET', paths: [listPath('')] },
      { minRawGetRatio: 0.069 },
      (): Promise<unknown> => pool.query(listSql, [session.groupId]),
    ),
  );
  results.push(
    await measure(
      `list q=${SEARCH_WORD}`,
      { method: 'GET', paths: [listPath(`q=${SEARCH_WORD}`)] },
      { minRawGetRatio: 0.145 },
    ),
  );
  for (const word of [RARE_WORD, COMMON_WORD]) {
    results.push(
      await measure(`list q=${word}`, { method: 'GET', paths: [listPath(`q=${word}`)] }, {}),
    );
  }
  results.push(
    await measure(
      `list tags=${seed.parentTag.name}`,
      { method: 'GET', paths: [listPath(`tags=${seed.parentTag.id}`)] },
      {
        minRawGetRatio: 0.034,
        // Judged at a million entities only.
        ...(settings.entities >= LARGE_SIZE ? { maxP99: 500 } : {}),
      },
    ),
  );
  results.push(
    await measure(
      'get',
      { method: 'GET', paths: fixtures.getIds.map((id) => `/api/v1/entities/${id}`) },
      { minRawGetRatio: 0.6 },
      rawGetResult,
    ),
  );
  progress('get: the raw prepared get behind a bare NestJS route (platform-express)');
  const frameworkFloor: FrameworkFloor = await measureFrameworkFloor({
    databaseUrl: database.url,
    groupId: session.groupId,
    poolSize: APP_POOL_SIZE,
    paths: fixtures.getIds.map((id) => `/api/v1/entities/${id}`),
    connections: settings.connections,
    seconds: settings.seconds,
    warmupSeconds: settings.warmupSeconds,
    rawGetRequestsPerSecond: rawGetResult.requestsPerSecond,
  });
  progress(
    `  ${frameworkFloor.app.requestsPerSecond.toFixed(1)} req/s, p99 ${frameworkFloor.app.p99} ms, ` +
      `${frameworkFloor.app.non2xx + frameworkFloor.app.socketErrors} errors`,
  );
  results.push(
    await measure(
      'path',
      { method: 'GET', paths: fixtures.deepIds.map((id) => `/api/v1/entities/${id}/path`) },
      {},
      (n): Promise<unknown> =>
        rawPath(pool, session.groupId, fixtures.deepIds[n % fixtures.deepIds.length]),
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
      { minRatio: 0.8 },
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

  // The console's pages beside the API routes they show, on lists made through the API.
  progress('console: lending and setting minimums through the API');
  const consoleFixtures = await prepareConsoleFixtures(
    pool,
    baseUrl,
    session,
    fixtures.getIds.slice(0, 200),
  );
  progress(`  ${consoleFixtures.lent} lent, ${consoleFixtures.low} at their minimum`);
  const consolePages: ConsolePageResult[] = [];
  for (const pair of consolePagePairs({ search: SEARCH_WORD }, fixtures.getIds.slice(0, 100))) {
    const load = async (paths: string[], what: string) => {
      progress(`console ${pair.name}: ${what}`);
      const http = (seconds: number): HttpLoad => ({
        method: 'GET',
        paths,
        url: baseUrl,
        headers: { authorization: session.authorization },
        connections: settings.connections,
        seconds,
      });
      if (settings.warmupSeconds > 0) await runHttpLoad(http(settings.warmupSeconds));
      await settle(pool);
      const result = await runHttpLoad(http(settings.seconds));
      await settle(pool);
      progress(`  ${result.requestsPerSecond.toFixed(1)} req/s, p99 ${result.p99} ms`);
      return result;
    };
    const api: HttpLoadResult[] = [];
    for (const paths of pair.api) api.push(await load(paths, `the API route ${paths[0]}`));
    const page = await load(pair.page, 'the page');
    consolePages.push(judgePage(pair, page, api));
  }

  // The cost of telemetry: get and list again on a Trove with it on, at two sampling ratios.
  const offResult = (name: string): ScenarioResult => {
    const found = results.find((result) => result.name === name);
    if (!found) throw new Error(`no ${name} scenario to compare telemetry with`);
    return found;
  };
  const telemetryCost: TelemetryCostRow[] = await measureTelemetryCost({
    databaseUrl: database.url,
    authorization: session.authorization,
    scenarios: [
      {
        name: 'get',
        paths: fixtures.getIds.map((id) => `/api/v1/entities/${id}`),
        off: offResult('get').app,
      },
      { name: 'list', paths: [listPath('')], off: offResult('list').app },
    ],
    ratios: [1, 0.1],
    env: troveEnv,
    connections: settings.connections,
    seconds: settings.seconds,
    warmupSeconds: settings.warmupSeconds,
    settle: () => settle(pool),
    progress,
  });

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

  const watched = await memoryWatch.stop();

  // Instance backups of the whole instance as it now is, while Trove runs: each command is a
  // process of its own, so Trove's memory above is not theirs.
  progress('instance backup: npm run backup, backup --verify and npm run restore');
  const backupCleanups: (() => Promise<unknown>)[] = [];
  cleanups.push({
    name: 'instance backup files and databases',
    run: async () => {
      for (let step = backupCleanups.pop(); step; step = backupCleanups.pop()) await step();
    },
  });
  const instanceBackup: InstanceBackupMeasure = await measureInstanceBackup({
    databaseUrl: database.url,
    databaseName: database.name,
    dataDir,
    pool,
    cleanups: backupCleanups,
    progress,
    variants: [['', {}]],
  });
  const memory: MemorySummary = {
    startMiB: round1(watched.before),
    sampledPeakMiB: round1(watched.sampledPeak),
    highWaterMarkMiB: round1(watched.highWaterMark),
    peakMiB: round1(watched.peak),
    samples: watched.samples,
    maxMB: MAX_RSS_MB,
    met: (watched.peak * 1024 * 1024) / 1e6 < MAX_RSS_MB,
  };
  const idle: IdleMemorySummary = {
    troveMiB: round1(idleMiB),
    frameworkMiB: round1(frameworkFloor.idleRssMiB),
    maxAboveFrameworkMiB: MAX_IDLE_ABOVE_FRAMEWORK_MIB,
    met: idleMiB - frameworkFloor.idleRssMiB <= MAX_IDLE_ABOVE_FRAMEWORK_MIB,
  };

  const table = formatTable(results);
  const totalSeconds = (performance.now() - startedAt) / 1000;
  console.log(
    `\nTrove ${troveVersion}, ${seed.entities} entities, ${database.kind} PostgreSQL ` +
      `${version[0].server_version}, Node ${process.version}, ${os.cpus().length} CPUs, ` +
      `${settings.connections} connections, ${settings.seconds} s per run\n`,
  );
  console.log(
    `raw prepared get: ${rawGetResult.requestsPerSecond.toFixed(1)} req/s, ` +
      `p99 ${rawGetResult.p99.toFixed(1)} ms (the "× raw get" of every line); RSS MiB: ` +
      `Trove's highest sampled resident set during the scenario\n`,
  );
  console.log(table);
  console.log(
    `\n${formatFrameworkFloor(
      frameworkFloor,
      results.find((result) => result.name === 'get'),
    )}`,
  );
  console.log(`\n${formatConsolePages(consolePages)}`);
  console.log(`\n${formatTelemetryCost(telemetryCost)}`);
  console.log(`\n${formatMemory(memory)}`);
  console.log(formatIdleMemory(idle, memory, frameworkFloor));
  console.log(formatStartup(startup, frameworkFloor));
  console.log(
    `attachments, 10 MiB on local disk: upload ${attachments.uploadMBps} MB/s, ` +
      `download ${attachments.downloadMBps} MB/s`,
  );
  console.log(`\n${formatInstanceBackup(instanceBackup)} (${instanceBackup.sizes.join(', ')})`);

  const current = { settings: { entities: settings.entities }, scenarios: results };
  let comparison: SizeComparison[] = [];
  if (settings.entities === LARGE_SIZE || settings.entities === SMALL_SIZE) {
    const otherSize = settings.entities === LARGE_SIZE ? SMALL_SIZE : LARGE_SIZE;
    const other = await readResults(resultsOfSize(otherSize));
    if (other) {
      comparison =
        otherSize === SMALL_SIZE
          ? compareSizes(other, current, MIN_LARGE_SHARE)
          : compareSizes(current, other, MIN_LARGE_SHARE);
      console.log(
        `\n${formatComparison(comparison)}\n(the ${otherSize} run: bench/results-${otherSize}.json of ${other.date})`,
      );
    }
  }

  const output = {
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
      search: Object.entries(fixtures.searches).map(([q, matches]) => ({ q, matches })),
      tagFilter: {
        tag: seed.parentTag.name,
        expandsTo: seed.parentTag.expandsTo,
        matches: fixtures.tagMatches,
      },
    },
    rawGet: rawGetResult,
    scenarios: results,
    consolePages,
    frameworkFloor,
    telemetryCost,
    memory,
    idleMemory: idle,
    startup,
    sizeComparison: comparison,
    attachments,
    instanceBackup: {
      runs: instanceBackup.runs.map(({ name, ms, peakMiB }) => ({ name, ms, peakMiB })),
      sizes: instanceBackup.sizes,
      peakMiB: instanceBackup.peakMiB,
      maxPeakMiB: instanceBackup.maxPeakMiB,
      met: instanceBackup.met,
    },
    allTargetsMet:
      results.every((result) => result.missed.length === 0) &&
      consolePages.every((result) => result.missed.length === 0) &&
      memory.met &&
      idle.met &&
      instanceBackup.met &&
      comparison.every((row) => row.met),
    totalSeconds: Number(totalSeconds.toFixed(1)),
  };
  await writeResults(RESULTS_FILE, output);
  await writeResults(resultsOfSize(settings.entities), output);
  progress(
    `results written to bench/results.json and bench/results-${settings.entities}.json; shutting down`,
  );
}

const round1 = (value: number): number => Math.round(value * 10) / 10;

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
  /** Items inside items: the deepest entities, at the end of the longest paths. */
  deepIds: string[];
  /** Each searched word and the total of its list. */
  searches: Record<string, number>;
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
  const { rows: deep } = await pool.query<{ id: string }>(
    `SELECT e.id FROM entities e JOIN entities p ON p.id = e.parent_id
     WHERE e.group_id = $1 AND p.entity_type_id = $2
     ORDER BY md5(e.id::text) LIMIT ${GET_IDS}`,
    [session.groupId, itemTypeId],
  );
  if (rows.length === 0 || deep.length === 0) throw new Error('the inventory is too small');
  type Page = { total: number };
  const total = async (query: string): Promise<number> =>
    (await getJson<Page>(baseUrl, session, `/api/v1/entities?${query}&page=1&pageSize=1`)).total;
  const searches: Record<string, number> = {};
  for (const word of [SEARCH_WORD, RARE_WORD, COMMON_WORD]) {
    searches[word] = await total(`q=${word}`);
  }
  return {
    getIds: rows.map((row) => row.id),
    deepIds: deep.map((row) => row.id),
    searches,
    tagMatches: await total(`tags=${parentTagId}`),
  };
}

/** The raw SQL must fetch what the app shows: the same page, total and entity. */
async function checkRawMatchesApp(
  pool: pg.Pool,
  baseUrl: string,
  session: BenchSession,
  entityId: string,
  deepId: string,
): Promise<void> {
  const page = await getJson<{ total: number; items: { id: string; tags: unknown[] }[] }>(
    baseUrl,
    session,
    `/api/v1/entities?page=1&pageSize=${PAGE_SIZE}`,
  );
  const { rows: listed } = await pool.query<{ id: string; position: string | null; total: number }>(
    listStatement(PAGE_SIZE, 0),
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
  const trail = await getJson<{ id: string }[]>(
    baseUrl,
    session,
    `/api/v1/entities/${deepId}/path`,
  );
  const { rows: rawTrail } = await pool.query<{ id: string }>(PATH_STATEMENT, [
    session.groupId,
    deepId,
  ]);
  if (rawTrail.map((row) => row.id).join() !== trail.map((step) => step.id).join()) {
    throw new Error('the raw path SQL does not return the path the app returns');
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
