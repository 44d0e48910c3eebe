import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBenchDatabase } from './database.js';
import { signUp } from './session.js';
import { loadTroveBuild } from './trove.js';

/**
 * The CSV import at scale: Trove's production build (`node dist/main.js`, a child process, so
 * its resident set is its own) on a fresh database (DATABASE_URL's server, or an embedded one)
 * imports BENCH_IMPORT_ROWS (100,000) generated rows into a new group over HTTP. Prints the time
 * the request took and Trove's resident memory before and at its peak (sampled from /proc, with
 * the kernel's high-water mark reset just before the upload).
 *
 *   npm run build && npx tsc -p bench/tsconfig.json && node dist/bench/bench/csv-import.js
 */

const ROWS = Math.round(Number(process.env.BENCH_IMPORT_ROWS || 100_000));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = path.join(ROOT, 'dist', 'main.js');

const HEADER = [
  'HB.import_ref',
  'HB.location',
  'HB.name',
  'HB.description',
  'HB.quantity',
  'HB.purchase_date',
  'HB.purchase_price',
  'HB.insured',
  'HB.manufacturer',
  'HB.tags',
  'HB.field.Batch',
];

/** Writes the file row by row, so generating it takes no memory either. */
async function writeRows(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  const write = async (line: string): Promise<void> => {
    if (!out.write(`${line}\n`)) await once(out, 'drain');
  };
  await write(HEADER.join(','));
  for (let index = 0; index < rows; index++) {
    const day = String((index % 28) + 1).padStart(2, '0');
    await write(
      [
        `bench-${index}`,
        `Building ${index % 5} / Room ${index % 40} / Shelf ${index % 8}`,
        `Part ${index}`,
        `Spare part number ${index} for the bench`,
        String(index % 12),
        `2025-03-${day}`,
        `${index % 500}.99`,
        index % 3 === 0 ? 'true' : 'false',
        `Maker ${index % 50}`,
        `"Bulk; Lot ${index % 20}"`,
        `B${index}`,
      ].join(','),
    );
  }
  out.end();
  await once(out, 'finish');
}

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
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      TROVE_DATA_DIR: dataDir,
      TROVE_WEB_HOST: '127.0.0.1',
      TROVE_WEB_PORT: '0',
      TROVE_WEB_MAX_UPLOAD_SIZE: '100',
      TROVE_LOG_FORMAT: 'json',
      TROVE_LOG_LEVEL: 'info',
      TROVE_AUTH_RATE_LIMIT_ENABLED: 'false',
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

async function main(): Promise<void> {
  const trove = await loadTroveBuild();
  const database = await createBenchDatabase(trove, process.env.DATABASE_URL || undefined, () => {
    return undefined;
  });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-import-'));
  let child: ChildProcess | undefined;
  try {
    const started = await startTrove(database.url, dataDir);
    child = started.child;
    const pid = child.pid!;
    const session = await signUp(started.baseUrl);

    const file = path.join(dataDir, 'bench.csv');
    await writeRows(file, ROWS);
    const { size } = await stat(file);
    const form = new FormData();
    form.append('csv', await openAsBlob(file, { type: 'text/csv' }), 'bench.csv');

    // 5: reset the resident set's high-water mark (Linux 4.0 and later).
    await writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);
    const before = await memoryOf(pid);
    let sampled = before.rss;
    const sampler = setInterval(() => {
      void memoryOf(pid).then((memory) => (sampled = Math.max(sampled, memory.rss)));
    }, 20);
    const begun = performance.now();
    let response: Response;
    try {
      response = await fetch(`${started.baseUrl}/api/v1/entities/import`, {
        method: 'POST',
        headers: { Authorization: session.authorization },
        body: form,
      });
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - begun) / 1000;
    const text = await response.text();
    if (response.status !== 204) {
      throw new Error(`import answered ${response.status}: ${text.slice(0, 2000)}`);
    }
    const after = await memoryOf(pid);
    console.log(`rows imported:      ${ROWS} (${(size / 1024 / 1024).toFixed(1)} MiB of CSV)`);
    console.log(`time:               ${seconds.toFixed(1)} s`);
    console.log(`Trove RSS before:   ${Math.round(before.rss)} MiB`);
    console.log(`Trove RSS peak:     ${Math.round(Math.max(sampled, after.rss, after.peak))} MiB`);
  } finally {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await rm(dataDir, { recursive: true, force: true });
    await database.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
