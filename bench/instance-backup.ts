import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateX25519Identity } from 'age-encryption';
import pg from 'pg';
import { createBenchDatabase } from './database.js';
import { seedInventory, starterTypes } from './seed.js';
import { createEntity, signUp, uploadFile } from './session.js';
import { loadTroveBuild } from './trove.js';
import { memoryOf, startTroveProcess } from './trove-process.js';

/**
 * How long an instance backup, its rehearsed restore and a restore take at a given inventory
 * size, and the peak memory of each command. Trove (`node dist/main.js`) makes the instance and
 * the bench seeds `BENCH_ENTITIES` (default 100000) entities and uploads `BENCH_FILES` (default
 * 100) files of 256 KiB of random bytes; then `node dist/cli/backup.js` makes a backup while
 * Trove runs (written, its restore rehearsed in a scratch database, stored), `backup.js --verify`
 * rehearses its restore again, and `node dist/cli/restore.js` restores it into a new, empty
 * database and data directory; then the same three encrypted to an age key, and with a
 * passphrase (age's scrypt, which takes 256 MiB for a moment each time it derives the key). Each
 * command's resident set is sampled from /proc every 20 ms (its kernel high-water mark).
 *
 *   npm run build && npx tsc -p bench/tsconfig.json && node dist/bench/bench/instance-backup.js
 *
 * DATABASE_URL: an existing PostgreSQL server to create the benchmark's databases on (else an
 * embedded one is started).
 */

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const startedAt = performance.now();
const progress = (message: string): void =>
  console.log(`[${((performance.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${message}`);

export interface CommandRun {
  name: string;
  ms: number;
  peakMiB: number;
  output: string;
}

/** Runs a CLI of the build with `env`, sampling its peak resident set. */
async function runCommand(
  name: string,
  args: string[],
  env: Record<string, string>,
): Promise<CommandRun> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, TROVE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let peak = 0;
  const sampler = setInterval(() => {
    if (child.pid === undefined) return;
    memoryOf(child.pid)
      // A sample read as the process exits has no VmHWM line.
      .then((memory) => (peak = Number.isFinite(memory.peak) ? Math.max(peak, memory.peak) : peak))
      .catch(() => undefined);
  }, 20);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`${name} exited ${code}: ${output}`);
  return { name, ms: Math.round(performance.now() - started), peakMiB: Math.round(peak), output };
}

/** What `measureInstanceBackup` saw: each command's time and peak, the archives' sizes. */
export interface InstanceBackupMeasure {
  runs: CommandRun[];
  sizes: string[];
  /** The highest peak resident set of any command, in MiB, and the most it may be. */
  peakMiB: number;
  maxPeakMiB: number;
  met: boolean;
}

/**
 * The most any command may hold, however large the instance: they stream, so their memory does
 * not grow with it (a passphrase's scrypt alone takes 256 MiB, so it is left out of the target).
 */
export const MAX_BACKUP_PEAK_MIB = 256;

/**
 * For each variant (a label and the settings it adds), runs `npm run backup` (written, its
 * restore rehearsed, stored) against the running instance of `databaseUrl` and `dataDir`,
 * `backup --verify` on its archive, and `npm run restore` into a new database and data
 * directory, each sampled for its peak resident set.
 */
export async function measureInstanceBackup(options: {
  databaseUrl: string;
  databaseName: string;
  dataDir: string;
  pool: pg.Pool;
  cleanups: (() => Promise<unknown>)[];
  progress: (message: string) => void;
  variants: (readonly [string, Record<string, string>])[];
}): Promise<InstanceBackupMeasure> {
  const { databaseUrl, databaseName, dataDir, pool, cleanups, progress: say } = options;
  const runs: CommandRun[] = [];
  const sizes: string[] = [];
  const targeted: CommandRun[] = [];
  for (const [label, extra] of options.variants) {
    const backupDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-backups-'));
    cleanups.push(() => rm(backupDir, { recursive: true, force: true }));
    const env = {
      DATABASE_URL: databaseUrl,
      TROVE_DATA_DIR: dataDir,
      TROVE_BACKUP_DIR: backupDir,
      ...extra,
    };
    say(`instance backup${label}, while Trove runs (written, rehearsed, stored)`);
    const backup = await runCommand(`backup${label}`, ['dist/cli/backup.js'], env);
    const [file] = await readdir(backupDir);
    const archive = path.join(backupDir, file);
    sizes.push(`${file}: ${((await stat(archive)).size / 1024 / 1024).toFixed(1)} MiB`);
    say(`rehearsed restore${label} (backup --verify)`);
    const verify = await runCommand(
      `backup --verify${label}`,
      ['dist/cli/backup.js', '--verify', archive],
      env,
    );
    const restoredName = `${databaseName}_restored_${runs.length}`;
    await pool.query(`CREATE DATABASE "${restoredName}"`);
    const restoredUrl = new URL(databaseUrl);
    restoredUrl.pathname = `/${restoredName}`;
    cleanups.push(() => pool.query(`DROP DATABASE IF EXISTS "${restoredName}" WITH (FORCE)`));
    const restoredDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-restored-'));
    cleanups.push(() => rm(restoredDir, { recursive: true, force: true }));
    say(`restore${label} into an empty database`);
    const restore = await runCommand(`restore${label}`, ['dist/cli/restore.js', archive], {
      DATABASE_URL: restoredUrl.toString(),
      TROVE_DATA_DIR: restoredDir,
      ...extra,
    });
    for (const run of [backup, verify, restore]) say(`  ${run.output.trim()}`);
    runs.push(backup, verify, restore);
    if (!('TROVE_BACKUP_PASSPHRASE' in extra)) targeted.push(backup, verify, restore);
  }
  const peakMiB = Math.max(...targeted.map((run) => run.peakMiB));
  return {
    runs,
    sizes,
    peakMiB,
    maxPeakMiB: MAX_BACKUP_PEAK_MIB,
    met: peakMiB <= MAX_BACKUP_PEAK_MIB,
  };
}

/** The commands' times and peaks as a table, and the target's line. */
export function formatInstanceBackup(measure: InstanceBackupMeasure): string {
  const rows = measure.runs.map(
    (run) =>
      `${run.name.padEnd(32)} ${String(run.ms).padStart(9)} ms ${String(run.peakMiB).padStart(6)} MiB`,
  );
  return [
    `${'instance backup command'.padEnd(32)} ${'time'.padStart(12)} ${'peak RSS'.padStart(10)}`,
    ...rows,
    `peak of the commands (passphrase aside) ${measure.peakMiB} MiB, at most ` +
      `${measure.maxPeakMiB} MiB: ${measure.met ? 'met' : 'MISSED'}`,
  ].join('\n');
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
    const child = await startTroveProcess({
      databaseUrl: database.url,
      dataDir,
      env: { TROVE_BARCODE_UPCITEMDB_URL: '', TROVE_BARCODE_OPENFOODFACTS_URL: '' },
    });
    cleanups.push(() => child.stop());
    const session = await signUp(child.baseUrl);
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    cleanups.push(() => pool.end());
    const seed = await seedInventory(pool, {
      groupId: session.groupId,
      ...(await starterTypes(pool, session.groupId)),
      entities,
      progress,
    });

    const files = Math.round(Number(process.env.BENCH_FILES || 100));
    progress(`uploading ${files} files of 256 KiB`);
    const holder = await createEntity(child.baseUrl, session, 'Photo box');
    for (let i = 0; i < files; i += 1) {
      await uploadFile(child.baseUrl, session, holder, `photo-${i}.bin`, randomBytes(256 * 1024));
    }

    const measured = await measureInstanceBackup({
      databaseUrl: database.url,
      databaseName: database.name,
      dataDir,
      pool,
      cleanups,
      progress,
      variants: [
        ['', {}],
        [' (age key)', { TROVE_BACKUP_AGE_KEY: await generateX25519Identity() }],
        [' (passphrase)', { TROVE_BACKUP_PASSPHRASE: 'bench passphrase of some length' }],
      ],
    });
    console.log(
      `\nInstance backup of ${seed.entities} entities (${seed.entityFields} custom fields, ` +
        `${seed.entityTags} tags on entities) and ${files} files of 256 KiB; ` +
        `${measured.sizes.join(', ')}; Node ${process.version}, ${os.cpus().length} CPUs, ` +
        `${database.kind} PostgreSQL\n`,
    );
    console.log(formatInstanceBackup(measured));
  } finally {
    for (let step = cleanups.pop(); step; step = cleanups.pop()) {
      await step().catch((error: unknown) => console.error('clean-up failed:', error));
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
