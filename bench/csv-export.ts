import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createBenchDatabase } from './database.js';
import { seedInventory } from './seed.js';
import { signUp, type BenchSession } from './session.js';
import { loadTroveBuild } from './trove.js';

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

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = path.join(ROOT, 'dist', 'main.js');

const startedAt = performance.now();
const progress = (message: string): void =>
  console.log(`[${((performance.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${message}`);

/** Resident set and its high-water mark of a process, in MiB (Linux). */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** Starts the build on `databaseUrl` and resolves with its base URL once it listens. */
async function startTrove(
  databaseUrl: string,
  dataDir: string,
): Promise<{ child: ChildProcess; baseUrl: string }> {
  const heapMiB = process.env.BENCH_APP_HEAP_MB;
  const flags = heapMiB ? [`--max-old-space-size=${heapMiB}`] : [];
  const child = spawn(process.execPath, [...flags, MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      TROVE_DATA_DIR: dataDir,
      TROVE_WEB_HOST: '127.0.0.1',
      TROVE_WEB_PORT: '0',
      TROVE_LOG_FORMAT: 'json',
      TROVE_LOG_LEVEL: 'info',
      TROVE_DATABASE_POOL_SIZE: '10',
      TROVE_AUTH_RATE_LIMIT_ENABLED: 'false',
      TROVE_BARCODE_UPCITEMDB_URL: '',
      TROVE_BARCODE_OPENFOODFACTS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      for (const text of parts) {
        try {
          const line = JSON.parse(text) as { msg?: string; url?: string };
          if (line.msg === 'Trove is listening' && line.url) resolve(line.url);
        } catch {
          // not a log line
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`Trove exited during start-up (code ${code})`)));
  });
  child.stdout.resume();
  return { child, baseUrl };
}

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
  // 5: reset the resident set's high-water mark (Linux 4.0 and later).
  await writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);
  const before = await memoryOf(pid);
  let sampled = before.rss;
  const sampler = setInterval(() => {
    void memoryOf(pid).then((memory) => (sampled = Math.max(sampled, memory.rss)));
  }, 20);
  const started = performance.now();
  let firstByteMs = 0;
  let bytes = 0;
  let lines = 0;
  try {
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
  } finally {
    clearInterval(sampler);
  }
  const totalMs = performance.now() - started;
  const after = await memoryOf(pid);
  return {
    name,
    bytes,
    lines,
    firstByteMs: Math.round(firstByteMs),
    totalMs: Math.round(totalMs),
    rssBeforeMiB: Math.round(before.rss),
    peakRssMiB: Math.round(Math.max(sampled, after.rss, after.peak)),
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
    const { child, baseUrl } = await startTrove(database.url, dataDir);
    cleanups.push(async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    });
    const session = await signUp(baseUrl);
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    cleanups.push(() => pool.end());
    const { rows: types } = await pool.query<{ id: string; is_location: boolean }>(
      `SELECT id, is_location FROM entity_types WHERE group_id = $1 AND name IN ('Item', 'Location')`,
      [session.groupId],
    );
    const seed = await seedInventory(pool, {
      groupId: session.groupId,
      itemTypeId: types.find((type) => !type.is_location)!.id,
      locationTypeId: types.find((type) => type.is_location)!.id,
      entities,
      progress,
    });
    const idle = await memoryOf(child.pid!);
    progress(`Trove idle after seeding: ${Math.round(idle.rss)} MiB resident`);

    const results: Download[] = [];
    const readBefore = await entitiesExported(pool);
    for (const [name, route] of [
      ['export', '/api/v1/entities/export'],
      ['bill of materials', '/api/v1/reporting/bill-of-materials'],
      ['export, again', '/api/v1/entities/export'],
    ] as const) {
      progress(`${name}: GET ${route}`);
      const result = await download(name, baseUrl, route, session, child.pid!);
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
