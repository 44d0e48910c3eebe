import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { createBenchDatabase } from './database.js';
import { signUp } from './session.js';
import { loadTroveBuild } from './trove.js';
import { measureMemory, startTroveProcess, type TroveProcess } from './trove-process.js';

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

async function main(): Promise<void> {
  const build = await loadTroveBuild();
  const database = await createBenchDatabase(build, process.env.DATABASE_URL || undefined, () => {
    return undefined;
  });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-import-'));
  let trove: TroveProcess | undefined;
  try {
    const started = await startTroveProcess({
      databaseUrl: database.url,
      dataDir,
      env: { TROVE_WEB_MAX_UPLOAD_SIZE: '100' },
    });
    trove = started;
    const session = await signUp(started.baseUrl);

    const file = path.join(dataDir, 'bench.csv');
    await writeRows(file, ROWS);
    const { size } = await stat(file);
    const form = new FormData();
    form.append('csv', await openAsBlob(file, { type: 'text/csv' }), 'bench.csv');

    const begun = performance.now();
    const { result: response, memory } = await measureMemory(
      started.pid,
      async () => {
        const answer = await fetch(`${started.baseUrl}/api/v1/entities/import`, {
          method: 'POST',
          headers: { Authorization: session.authorization },
          body: form,
        });
        return { status: answer.status, text: await answer.text() };
      },
      { reset: true },
    );
    const seconds = (performance.now() - begun) / 1000;
    if (response.status !== 204) {
      throw new Error(`import answered ${response.status}: ${response.text.slice(0, 2000)}`);
    }
    console.log(`rows imported:      ${ROWS} (${(size / 1024 / 1024).toFixed(1)} MiB of CSV)`);
    console.log(`time:               ${seconds.toFixed(1)} s`);
    console.log(`Trove RSS before:   ${Math.round(memory.before)} MiB`);
    console.log(`Trove RSS peak:     ${Math.round(memory.peak)} MiB`);
  } finally {
    await trove?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await database.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
