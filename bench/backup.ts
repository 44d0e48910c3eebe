import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { signUp, type BenchSession } from './session.js';

/**
 * Peak memory of a collection backup export: a production build of Trove runs as its own process
 * (`node dist/main.js`) on a fresh database of the PostgreSQL at `DATABASE_URL` and local-disk
 * storage; the collection gets `BENCH_BACKUP_MB` (default 500) MiB of attachments, 10 MiB of
 * random bytes each (incompressible, all distinct); then one export is timed while the process's
 * resident memory is sampled every 20 ms from /proc, and so is the import of its zip into a new
 * collection. The download is checked for its size.
 *
 * Run: `npm run build && tsc -p bench/tsconfig.json && DATABASE_URL=postgres://... node
 * dist/bench/bench/backup.js`.
 */

const MIB = 1024 * 1024;
const FILE_MIB = 10;
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

/** VmRSS and VmHWM (peak) of a process, in MiB. */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function json<T>(response: Response, expected: number): Promise<T> {
  const text = await response.text();
  if (response.status !== expected) {
    throw new Error(`${response.url}: expected ${expected}, got ${response.status}: ${text}`);
  }
  return JSON.parse(text) as T;
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error('set DATABASE_URL to a PostgreSQL server the bench may create a database on');
  const totalMib = Number(process.env.BENCH_BACKUP_MB ?? 500);
  const databaseName = `trove_bench_backup_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${databaseName}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-backup-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl.toString(),
      TROVE_DATA_DIR: dataDir,
      TROVE_WEB_PORT: String(port),
      TROVE_WEB_HOST: '127.0.0.1',
      TROVE_WEB_MAX_UPLOAD_SIZE: String(FILE_MIB + 1),
      TROVE_JOBS_POLL_INTERVAL: '1',
      TROVE_LOG_LEVEL: 'warn',
      TROVE_THUMBNAIL_ENABLED: 'false',
      TROVE_BACKUP_MAX_IMPORT_SIZE: '2048',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    for (let tries = 0; ; tries += 1) {
      try {
        if ((await fetch(`${baseUrl}/api/v1/health/ready`)).ok) break;
      } catch {
        // not listening yet
      }
      if (tries > 600) throw new Error('Trove did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const session: BenchSession = await signUp(baseUrl);
    const headers = { authorization: session.authorization };
    const entity = await json<{ id: string }>(
      await fetch(`${baseUrl}/api/v1/entities`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Archive box' }),
      }),
      201,
    );
    const files = Math.ceil(totalMib / FILE_MIB);
    const uploadStart = performance.now();
    for (let index = 0; index < files; index += 1) {
      const form = new FormData();
      form.append('file', new Blob([randomBytes(FILE_MIB * MIB)]), `part-${index}.bin`);
      form.append('name', `part-${index}.bin`);
      await json(
        await fetch(`${baseUrl}/api/v1/entities/${entity.id}/attachments`, {
          method: 'POST',
          headers,
          body: form,
        }),
        201,
      );
    }
    const uploadSeconds = (performance.now() - uploadStart) / 1000;
    const before = await memoryOf(child.pid!);

    let sampledPeak = before.rss;
    let sampling = true as boolean;
    const sampler = (async () => {
      while (sampling) {
        sampledPeak = Math.max(sampledPeak, (await memoryOf(child.pid!)).rss);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const exportStart = performance.now();
    const job = await json<{ id: string }>(
      await fetch(`${baseUrl}/api/v1/group/exports`, { method: 'POST', headers }),
      202,
    );
    let done: { status: string; sizeBytes: number; error?: string };
    for (;;) {
      done = await json(await fetch(`${baseUrl}/api/v1/group/exports/${job.id}`, { headers }), 200);
      if (done.status === 'completed' || done.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const exportSeconds = (performance.now() - exportStart) / 1000;
    sampling = false;
    await sampler;
    const after = await memoryOf(child.pid!);
    if (done.status !== 'completed') throw new Error(`export failed: ${done.error}`);

    const download = await fetch(`${baseUrl}/api/v1/group/exports/${job.id}/download`, { headers });
    const zipFile = path.join(dataDir, 'bench-export.zip');
    await pipeline(Readable.fromWeb(download.body! as never), createWriteStream(zipFile));
    const downloaded = (await stat(zipFile)).size;
    if (downloaded !== done.sizeBytes) {
      throw new Error(`download has ${downloaded} bytes, the export ${done.sizeBytes}`);
    }

    // The same zip restored into a new collection, memory sampled the same way.
    const heir = await signUp(baseUrl);
    const beforeImport = await memoryOf(child.pid!);
    let importPeak = beforeImport.rss;
    sampling = true;
    const importSampler = (async () => {
      while (sampling) {
        importPeak = Math.max(importPeak, (await memoryOf(child.pid!)).rss);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const importStart = performance.now();
    const form = new FormData();
    form.append('file', await openAsBlob(zipFile), 'backup.zip');
    const restore = await json<{ id: string }>(
      await fetch(`${baseUrl}/api/v1/group/import`, {
        method: 'POST',
        headers: { authorization: heir.authorization },
        body: form,
      }),
      202,
    );
    let restored: { status: string; error?: string };
    for (;;) {
      restored = await json(
        await fetch(`${baseUrl}/api/v1/group/exports/${restore.id}`, {
          headers: { authorization: heir.authorization },
        }),
        200,
      );
      if (restored.status === 'completed' || restored.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const importSeconds = (performance.now() - importStart) / 1000;
    sampling = false;
    await importSampler;
    if (restored.status !== 'completed') throw new Error(`import failed: ${restored.error}`);
    const round = (value: number): number => Math.round(value * 10) / 10;
    console.log(
      JSON.stringify(
        {
          attachmentsMiB: files * FILE_MIB,
          files,
          uploadSeconds: round(uploadSeconds),
          zipMiB: round(done.sizeBytes / MIB),
          exportSeconds: round(exportSeconds),
          rssBeforeExportMiB: round(before.rss),
          peakRssDuringExportMiB: round(sampledPeak),
          processPeakRssMiB: round(after.peak),
          rssAfterExportMiB: round(after.rss),
          importSeconds: round(importSeconds),
          rssBeforeImportMiB: round(beforeImport.rss),
          peakRssDuringImportMiB: round(importPeak),
        },
        null,
        2,
      ),
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
