import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createBenchDatabase } from './database.js';
import { seedInventory, starterTypes } from './seed.js';
import { signUp, type BenchSession } from './session.js';
import { loadTroveBuild } from './trove.js';
import { measureMemory, memoryOf, startTroveProcess } from './trove-process.js';

/**
 * How long the CSV export and the bill of materials of a large inventory take, and how much
 * memory Trove needs for them. Trove runs as a child process (`node dist/main.js`, the
 * production build) so its resident set is its own; it is sampled from /proc while each file is
 * downloaded, and the kernel's high-water mark is reset before each download so the peak is the
 * download's.
 *
 *   npm run build && npx tsc -p bench/tsconfig.json && node dist/bench/bench/csv-export.js
 *
 * BENCH_ENTITIES (default 100000) sets the inventory size; DATABASE_URL an existing PostgreSQL
 * server to create the benchmark's database on (else an embedded one is started);
 * BENCH_APP_HEAP_MB caps Trove's V8 heap (`--max-old-space-size`), to show the files stream
 * within a heap far smaller than they are.
 */

const startedAt = performance.now();
const progress = (message: string): void =>
  console.log(`[${((performance.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${message}`);

/**
 * Entities the exports have read so far: the export looks up the custom fields of each entity it
 * reads through the index on `entity_fields.entity_id`, and nothing else scans that index in a
 * loop. PostgreSQL publishes an idle session's counts within ten seconds, so this waits first.
 */
async function entitiesExported(pool: pg.Pool): Promise<number> {
  await sleep(11_000);
  const { rows } = await pool.query<{ n: string }>(
    `SELECT coalesce(idx_scan, 0) AS n FROM pg_stat_user_tables WHERE relname = 'entity_fields'`,
  );
  return Number(rows[0].n);
}

/**
 * Starts the export, reads its first chunk and goes away; resolves with how many entities Trove
 * read from the database for it.
 */
async function leaveEarly(
  baseUrl: string,
  route: string,
  session: BenchSession,
  pool: pg.Pool,
): Promise<number> {
  const before = await entitiesExported(pool);
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${route}`, {
    headers: { Authorization: session.authorization },
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  await reader.read();
  controller.abort();
  await reader.cancel().catch(() => undefined);
  return (await entitiesExported(pool)) - before;
}

interface Download {
  name: string;
  bytes: number;
  lines: number;
  firstByteMs: number;
  totalMs: number;
  rssBeforeMiB: number;
  peakRssMiB: number;
}

/** Downloads `route`, counting bytes and lines, while watching the memory of process `pid`. */
async function download(
  name: string,
  baseUrl: string,
  route: string,
  session: BenchSession,
  pid: number,
): Promise<Download> {
  const { result, memory } = await measureMemory(
    pid,
    async () => {
      const started = performance.now();
      let firstByteMs = 0;
      let bytes = 0;
      let lines = 0;
      const response = await fetch(`${baseUrl}${route}`, {
        headers: { Authorization: session.authorization },
      });
      if (response.status !== 200 || !response.body) {
        throw new Error(`${route}: ${response.status} ${await response.text()}`);
      }
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        if (bytes === 0) firstByteMs = performance.now() - started;
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) lines++;
      }
      return { firstByteMs, bytes, lines, totalMs: performance.now() - started };
    },
    { reset: true },
  );
  const { firstByteMs, bytes, lines, totalMs } = result;
  return {
    name,
    bytes,
    lines,
    firstByteMs: Math.round(firstByteMs),
    totalMs: Math.round(totalMs),
    rssBeforeMiB: Math.round(memory.before),
    peakRssMiB: Math.round(memory.peak),
  };
}

async function main(): Promise<void> {
  const entities = Math.round(Number(process.env.BENCH_ENTITIES || 100_000));
  const trove = await loadTroveBuild();
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const externalUrl = process.env.DATABASE_URL || undefined;
    progress(externalUrl ? 'creating a database on DATABASE_URL' : 'starting PostgreSQL');
    const database = await createBenchDatabase(trove, externalUrl, () => undefined);
    cleanups.push(() => database.dispose());
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-data-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

    progress('starting Trove (dist/main.js) as a child process');
    const heapMiB = Number(process.env.BENCH_APP_HEAP_MB) || undefined;
    const child = await startTroveProcess({
      databaseUrl: database.url,
      dataDir,
      heapMiB,
      env: {
        TROVE_DATABASE_POOL_SIZE: '10',
        TROVE_BARCODE_UPCITEMDB_URL: '',
        TROVE_BARCODE_OPENFOODFACTS_URL: '',
      },
    });
    const { baseUrl } = child;
    cleanups.push(() => child.stop());
    const session = await signUp(baseUrl);
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    cleanups.push(() => pool.end());
    const seed = await seedInventory(pool, {
      groupId: session.groupId,
      ...(await starterTypes(pool, session.groupId)),
      entities,
      progress,
    });
    const idle = await memoryOf(child.pid);
    progress(`Trove idle after seeding: ${Math.round(idle.rss)} MiB resident`);

    const results: Download[] = [];
    const readBefore = await entitiesExported(pool);
    for (const [name, route] of [
      ['export', '/api/v1/entities/export'],
      ['bill of materials', '/api/v1/reporting/bill-of-materials'],
      ['export, again', '/api/v1/entities/export'],
    ] as const) {
      progress(`${name}: GET ${route}`);
      const result = await download(name, baseUrl, route, session, child.pid);
      progress(
        `  ${result.lines - 1} rows, ${(result.bytes / 1024 / 1024).toFixed(1)} MiB in ` +
          `${result.totalMs} ms (first byte after ${result.firstByteMs} ms); Trove resident ` +
          `${result.rssBeforeMiB} MiB before, peak ${result.peakRssMiB} MiB`,
      );
      results.push(result);
    }
    const wholeRead = ((await entitiesExported(pool)) - readBefore) / 2;
    progress(`a whole export read ${wholeRead} entities from the database`);
    progress('export, the client leaving after the first chunk');
    const left = await leaveEarly(baseUrl, '/api/v1/entities/export', session, pool);
    progress(`  Trove read ${left} entities from the database for it`);
    console.log(
      `\nCSV export of ${seed.entities} entities (${seed.entityTags} tags on entities, ` +
        `${seed.entityFields} custom fields), Node ${process.version}, ${os.cpus().length} CPUs, ` +
        `${database.kind} PostgreSQL\n`,
    );
    console.table(
      results.map((result) => ({
        file: result.name,
        rows: result.lines - 1,
        MiB: Number((result.bytes / 1024 / 1024).toFixed(1)),
        'time (ms)': result.totalMs,
        'first byte (ms)': result.firstByteMs,
        'RSS before (MiB)': result.rssBeforeMiB,
        'peak RSS (MiB)': result.peakRssMiB,
      })),
    );
    console.log(
      `\nA client leaving after the first chunk of the export: Trove read ${left} entities ` +
        `from the database for it (for a whole export: ${wholeRead}).`,
    );
  } finally {
    for (let step = cleanups.pop(); step; step = cleanups.pop()) {
      await step().catch((error: unknown) => console.error('clean-up failed:', error));
    }
  }
}

try {
  await main();
} catch (error) {
  console.error('bench failed:', error);
  process.exitCode = 1;
} finally {
  setTimeout(() => process.exit(), 5000).unref();
}
