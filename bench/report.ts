import { writeFile } from 'node:fs/promises';
import type { HttpLoadResult } from './load.js';
import type { RawLoadResult } from './raw.js';

/** What a scenario must reach; every scenario must also have no errors. */
export interface Targets {
  /** Least Trove req/s as a share of the raw SQL req/s. */
  minRatio?: number;
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
  targets: Targets;
  /** Empty when every target is met. */
  missed: string[];
}

export function judge(
  name: string,
  method: string,
  path: string,
  app: HttpLoadResult,
  raw: RawLoadResult | undefined,
  targets: Targets,
): ScenarioResult {
  const ratio =
    raw && raw.requestsPerSecond > 0 ? app.requestsPerSecond / raw.requestsPerSecond : undefined;
  const missed: string[] = [];
  const errors = app.non2xx + app.socketErrors;
  if (app.requests === 0) missed.push('no request completed');
  if (errors > 0) missed.push(`${errors} errors`);
  if (raw && raw.errors > 0) missed.push(`${raw.errors} raw SQL errors`);
  if (targets.minRatio !== undefined && (ratio ?? 0) < targets.minRatio) {
    missed.push(`ratio < ${targets.minRatio}`);
  }
  if (targets.maxP99 !== undefined && app.p99 >= targets.maxP99) {
    missed.push(`p99 ≥ ${targets.maxP99} ms`);
  }
  return { name, method, path, app, raw, ratio, targets, missed };
}

const COLUMNS = [
  ['scenario', 26],
  ['req/s', 8],
  ['p50 ms', 7],
  ['p99 ms', 7],
  ['errors', 7],
  ['raw req/s', 10],
  ['ratio', 6],
  ['target met?', 0],
] as const;

function describeTargets(targets: Targets): string {
  const parts = [
    targets.minRatio !== undefined ? `ratio ≥ ${targets.minRatio}` : '',
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
