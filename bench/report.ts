import { readFile, writeFile } from 'node:fs/promises';
import type { FrameworkFloor } from './framework-floor.js';
import type { HttpLoadResult } from './load.js';
import type { RawLoadResult } from './raw.js';
import { IDLE_SETTLE_MS } from './trove-process.js';

/** What a scenario must reach; every scenario must also have no errors. */
export interface Targets {
  /** Least Trove req/s as a share of the raw SQL req/s of the same scenario. */
  minRatio?: number;
  /** Least Trove req/s as a share of the raw prepared get's req/s of the same run. */
  minRawGetRatio?: number;
  /** Highest p99 latency in ms. */
  maxP99?: number;
}

export interface ScenarioResult {
  name: string;
  method: string;
  path: string;
  app: HttpLoadResult;
  raw?: RawLoadResult;
  /** Trove req/s / raw SQL req/s. */
  ratio?: number;
  /** Trove req/s / the raw prepared get's req/s of the same run. */
  rawGetRatio: number;
  targets: Targets;
  /** Empty when every target is met. */
  missed: string[];
  /** Trove's highest sampled resident set during the scenario (its HTTP load), in MiB. */
  troveRssMiB?: number;
}

export function judge(
  name: string,
  method: string,
  path: string,
  app: HttpLoadResult,
  raw: RawLoadResult | undefined,
  targets: Targets,
  rawGet: RawLoadResult,
): ScenarioResult {
  const ratio =
    raw && raw.requestsPerSecond > 0 ? app.requestsPerSecond / raw.requestsPerSecond : undefined;
  const rawGetRatio = app.requestsPerSecond / rawGet.requestsPerSecond;
  const missed: string[] = [];
  const errors = app.non2xx + app.socketErrors;
  if (app.requests === 0) missed.push('no request completed');
  if (errors > 0) missed.push(`${errors} errors`);
  if (raw && raw.errors > 0) missed.push(`${raw.errors} raw SQL errors`);
  if (targets.minRatio !== undefined && (ratio ?? 0) < targets.minRatio) {
    missed.push(`ratio < ${targets.minRatio}`);
  }
  if (targets.minRawGetRatio !== undefined && rawGetRatio < targets.minRawGetRatio) {
    missed.push(`× raw get < ${targets.minRawGetRatio}`);
  }
  if (targets.maxP99 !== undefined && app.p99 >= targets.maxP99) {
    missed.push(`p99 ≥ ${targets.maxP99} ms`);
  }
  return { name, method, path, app, raw, ratio, rawGetRatio, targets, missed };
}

const COLUMNS = [
  ['scenario', 31],
  ['req/s', 8],
  ['p50 ms', 7],
  ['p99 ms', 7],
  ['errors', 7],
  ['raw req/s', 10],
  ['ratio', 6],
  ['× raw get', 9],
  ['RSS MiB', 7],
  ['target met?', 0],
] as const;

function describeTargets(targets: Targets): string {
  const parts = [
    targets.minRatio !== undefined ? `ratio ≥ ${targets.minRatio}` : '',
    targets.minRawGetRatio !== undefined ? `× raw get ≥ ${targets.minRawGetRatio}` : '',
    targets.maxP99 !== undefined ? `p99 < ${targets.maxP99} ms` : '',
    'no errors',
  ];
  return parts.filter(Boolean).join(', ');
}

/** The result table, one line a scenario. */
export function formatTable(results: ScenarioResult[]): string {
  const cell = (text: string, width: number, index: number): string =>
    index === 0 ? text.padEnd(width) : width === 0 ? text : text.padStart(width);
  const line = (cells: string[]): string =>
    cells.map((text, index) => cell(text, COLUMNS[index][1], index)).join('  ');
  const rows = results.map((result) =>
    line([
      result.name,
      result.app.requestsPerSecond.toFixed(1),
      result.app.p50.toFixed(0),
      result.app.p99.toFixed(0),
      String(result.app.non2xx + result.app.socketErrors),
      result.raw ? result.raw.requestsPerSecond.toFixed(1) : '-',
      result.ratio !== undefined ? result.ratio.toFixed(2) : '-',
      result.rawGetRatio.toFixed(3),
      result.troveRssMiB !== undefined ? result.troveRssMiB.toFixed(0) : '-',
      result.missed.length === 0
        ? `yes (${describeTargets(result.targets)})`
        : `NO: ${result.missed.join(', ')}`,
    ]),
  );
  const header = line(COLUMNS.map(([title]) => title));
  return [header, '-'.repeat(header.length + 30), ...rows].join('\n');
}

export async function writeResults(file: URL, results: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
}

/** Trove's peak resident set over the whole run, in MiB, and the target in MB (10^6 bytes). */
export interface MemorySummary {
  startMiB: number;
  sampledPeakMiB: number;
  highWaterMarkMiB: number;
  peakMiB: number;
  samples: number;
  maxMB: number;
  met: boolean;
}

export function formatMemory(memory: MemorySummary): string {
  const mb = (memory.peakMiB * 1024 * 1024) / 1e6;
  return (
    `Trove peak RSS: ${memory.peakMiB.toFixed(1)} MiB = ${mb.toFixed(1)} MB (VmHWM ` +
    `${memory.highWaterMarkMiB.toFixed(1)} MiB; highest of ${memory.samples} VmRSS samples ` +
    `${memory.sampledPeakMiB.toFixed(1)} MiB; ${memory.startMiB.toFixed(1)} MiB once listening): ` +
    (memory.met ? `target met (< ${memory.maxMB} MB)` : `NO: ≥ ${memory.maxMB} MB`)
  );
}

/** Trove's resident set once idle (`idleMemoryOf`) beside the bare app's, in MiB. */
export interface IdleMemorySummary {
  troveMiB: number;
  frameworkMiB: number;
  maxAboveFrameworkMiB: number;
  met: boolean;
}

export function formatIdleMemory(
  idle: IdleMemorySummary,
  memory: MemorySummary,
  floor: FrameworkFloor,
): string {
  const above = idle.troveMiB - idle.frameworkMiB;
  return (
    `idle resident memory (ready, then ${IDLE_SETTLE_MS / 1000} s without a request): Trove ` +
    `${idle.troveMiB.toFixed(1)} MiB, the bare app ${idle.frameworkMiB.toFixed(1)} MiB ` +
    `(${above >= 0 ? '+' : ''}${above.toFixed(1)} MiB): ` +
    (idle.met
      ? `target met (≤ the bare app's + ${idle.maxAboveFrameworkMiB} MiB)`
      : `NO: > the bare app's + ${idle.maxAboveFrameworkMiB} MiB`) +
    `; peak over the run: Trove ${memory.peakMiB.toFixed(1)} MiB, the bare app ` +
    `${floor.peakRssMiB.toFixed(1)} MiB (its get scenario only)`
  );
}

/** How long Trove took from its start to ready, in ms. */
export interface StartupSummary {
  /** On the new database, migrating it. */
  firstStartMs: number;
  /** Stopped after seeding and started again on that database: nothing to migrate. */
  restartMs: number;
}

export function formatStartup(startup: StartupSummary, floor: FrameworkFloor): string {
  return (
    `start-up, process start to ready (/api/v1/health/ready 200): ${startup.restartMs} ms on ` +
    `the seeded database, ${startup.firstStartMs} ms on the new one (migrating it); the bare ` +
    `app listens ${floor.startupMs.toFixed(0)} ms after its start`
  );
}

/** The framework-floor line printed under the table (framework-floor.ts). */
export function formatFrameworkFloor(floor: FrameworkFloor, troveGet?: ScenarioResult): string {
  const mb = (floor.peakRssMiB * 1024 * 1024) / 1e6;
  const share = troveGet
    ? `; Trove's get ${(troveGet.app.requestsPerSecond / floor.app.requestsPerSecond).toFixed(2)} of it`
    : '';
  return (
    `framework alone: the raw prepared get behind a bare NestJS route (platform-express, nothing ` +
    `else), its own process: ${floor.app.requestsPerSecond.toFixed(1)} req/s, p99 ` +
    `${floor.app.p99} ms, ${floor.app.non2xx + floor.app.socketErrors} errors, ` +
    `${floor.rawGetRatio.toFixed(3)} × raw get${share}; RSS ${floor.startRssMiB.toFixed(1)} MiB ` +
    `once listening, peak ${floor.peakRssMiB.toFixed(1)} MiB = ${mb.toFixed(1)} MB`
  );
}

/** A results file of an earlier run: what the comparison of sizes reads from it. */
interface EarlierResults {
  date: string;
  settings: { entities: number };
  scenarios: Pick<ScenarioResult, 'name' | 'app' | 'rawGetRatio'>[];
}

export async function readResults(file: URL): Promise<EarlierResults | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as EarlierResults;
  } catch {
    return undefined;
  }
}

export interface SizeComparison {
  name: string;
  smallEntities: number;
  largeEntities: number;
  smallRequestsPerSecond: number;
  largeRequestsPerSecond: number;
  /** Large req/s / small req/s. */
  share: number;
  /** Large × raw get / small × raw get: the same share with each run's raw get cancelling noise. */
  rawGetShare: number;
  minShare: number;
  met: boolean;
}

/** Each list scenario (and the tree) of the larger run as a share of its rate in the smaller. */
export function compareSizes(
  small: Pick<EarlierResults, 'settings' | 'scenarios'>,
  large: Pick<EarlierResults, 'settings' | 'scenarios'>,
  minShare: number,
): SizeComparison[] {
  const compared: SizeComparison[] = [];
  for (const scenario of large.scenarios) {
    if (!scenario.name.startsWith('list') && scenario.name !== 'tree') continue;
    const before = small.scenarios.find((other) => other.name === scenario.name);
    if (!before || before.app.requestsPerSecond === 0) continue;
    const share = scenario.app.requestsPerSecond / before.app.requestsPerSecond;
    compared.push({
      name: scenario.name,
      smallEntities: small.settings.entities,
      largeEntities: large.settings.entities,
      smallRequestsPerSecond: before.app.requestsPerSecond,
      largeRequestsPerSecond: scenario.app.requestsPerSecond,
      share,
      rawGetShare: scenario.rawGetRatio / before.rawGetRatio,
      minShare,
      met: share >= minShare,
    });
  }
  return compared;
}

export function formatComparison(compared: SizeComparison[]): string {
  if (compared.length === 0) return '';
  const { smallEntities, largeEntities, minShare } = compared[0];
  const lines = compared.map(
    (row) =>
      `${row.name.padEnd(31)}  ${row.smallRequestsPerSecond.toFixed(1).padStart(9)}  ` +
      `${row.largeRequestsPerSecond.toFixed(1).padStart(9)}  ${row.share.toFixed(2).padStart(5)}  ` +
      `${row.rawGetShare.toFixed(2).padStart(15)}  ` +
      (row.met ? `yes (≥ ${minShare})` : `NO: < ${minShare}`),
  );
  const header =
    `${'scenario'.padEnd(31)}  ${`${smallEntities}`.padStart(9)}  ${`${largeEntities}`.padStart(9)}  ` +
    `share  × raw get share  target met?`;
  return [
    `req/s at ${largeEntities} entities as a share of req/s at ${smallEntities}:`,
    header,
    '-'.repeat(header.length + 10),
    ...lines,
  ].join('\n');
}
