import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runHttpLoad, type HttpLoad, type HttpLoadResult } from './load.js';
import { startTroveProcess } from './trove-process.js';

/** One scenario measured with telemetry on at one sampling ratio, beside the same one off. */
export interface TelemetryCostRow {
  scenario: string;
  /** The ratio of new traces sampled (OTEL_TRACES_SAMPLER_ARG). */
  sampling: number;
  on: Pick<HttpLoadResult, 'requestsPerSecond' | 'p50' | 'p99' | 'non2xx' | 'socketErrors'>;
  off: Pick<HttpLoadResult, 'requestsPerSecond' | 'p50' | 'p99'>;
  /** (on req/s - off req/s) / off req/s, in percent (negative: slower with telemetry). */
  throughputChangePercent: number;
}

export interface TelemetryCostOptions {
  databaseUrl: string;
  authorization: string;
  /** The scenarios (get, list) with their paths and the results of the same run, telemetry off. */
  scenarios: Array<{ name: string; paths: string[]; off: HttpLoadResult }>;
  ratios: number[];
  env: Record<string, string>;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** Waits until the database has no query of the last load running. */
  settle(): Promise<void>;
  progress(message: string): void;
}

/** A stand-in collector that takes every OTLP export and throws it away. */
async function startOtlpSink(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A free TCP port of 127.0.0.1, for the metrics listener. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The cost of telemetry: for each sampling ratio, a Trove build with everything on (traces,
 * metrics with a `/metrics` listener, OTLP export in http/protobuf to a local sink that discards
 * it) on the same database, loaded as the scenarios were with telemetry off.
 */
export async function measureTelemetryCost(
  options: TelemetryCostOptions,
): Promise<TelemetryCostRow[]> {
  const sink = await startOtlpSink();
  const rows: TelemetryCostRow[] = [];
  try {
    for (const sampling of options.ratios) {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-otel-'));
      options.progress(`telemetry on, sampling ${sampling}: starting Trove`);
      const trove = await startTroveProcess({
        databaseUrl: options.databaseUrl,
        dataDir,
        env: {
          ...options.env,
          TROVE_OTEL_ENABLED: 'true',
          TROVE_METRICS_PORT: String(await freePort()),
          OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: String(sampling),
          OTEL_METRIC_EXPORT_INTERVAL: '10000',
        },
      });
      try {
        for (const scenario of options.scenarios) {
          const load = (seconds: number): HttpLoad => ({
            url: trove.baseUrl,
            method: 'GET',
            headers: { authorization: options.authorization },
            paths: scenario.paths,
            connections: options.connections,
            seconds,
          });
          options.progress(`${scenario.name}: telemetry on, sampling ${sampling}`);
          if (options.warmupSeconds > 0) {
            await runHttpLoad(load(options.warmupSeconds));
            await options.settle();
          }
          const on = await runHttpLoad(load(options.seconds));
          await options.settle();
          const { off } = scenario;
          const change =
            ((on.requestsPerSecond - off.requestsPerSecond) / off.requestsPerSecond) * 100;
          options.progress(
            `  ${on.requestsPerSecond.toFixed(1)} req/s (off: ${off.requestsPerSecond.toFixed(1)}, ` +
              `${change >= 0 ? '+' : ''}${change.toFixed(1)} %), p99 ${on.p99} ms, ` +
              `${on.non2xx + on.socketErrors} errors`,
          );
          rows.push({
            scenario: scenario.name,
            sampling,
            on: {
              requestsPerSecond: on.requestsPerSecond,
              p50: on.p50,
              p99: on.p99,
              non2xx: on.non2xx,
              socketErrors: on.socketErrors,
            },
            off: { requestsPerSecond: off.requestsPerSecond, p50: off.p50, p99: off.p99 },
            throughputChangePercent: Math.round(change * 10) / 10,
          });
        }
      } finally {
        await trove.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    sink.server.closeAllConnections();
    await new Promise((resolve) => sink.server.close(resolve));
  }
  return rows;
}

/** The rows as a table: each scenario off, then on at each sampling ratio. */
export function formatTelemetryCost(rows: TelemetryCostRow[]): string {
  const lines = ['telemetry cost (traces, metrics and OTLP export on; same database, same load):'];
  lines.push(
    `${'scenario'.padEnd(10)}${'sampling'.padEnd(10)}${'req/s'.padStart(10)}` +
      `${'vs off'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}`,
  );
  const scenarios = [...new Set(rows.map((row) => row.scenario))];
  for (const scenario of scenarios) {
    const of = rows.filter((row) => row.scenario === scenario);
    const { off } = of[0];
    lines.push(
      `${scenario.padEnd(10)}${'off'.padEnd(10)}${off.requestsPerSecond.toFixed(1).padStart(10)}` +
        `${''.padStart(10)}${String(off.p50).padStart(9)}${String(off.p99).padStart(9)}`,
    );
    for (const row of of) {
      const change = `${row.throughputChangePercent >= 0 ? '+' : ''}${row.throughputChangePercent} %`;
      lines.push(
        `${scenario.padEnd(10)}${String(row.sampling).padEnd(10)}` +
          `${row.on.requestsPerSecond.toFixed(1).padStart(10)}${change.padStart(10)}` +
          `${String(row.on.p50).padStart(9)}${String(row.on.p99).padStart(9)}`,
      );
    }
  }
  return lines.join('\n');
}
