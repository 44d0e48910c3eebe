import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/**
 * Trove's production build (`node dist/main.js`) as a child process of a benchmark, so that its
 * resident set is its own, and the memory of that process read from /proc (Linux).
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = path.join(ROOT, 'dist', 'main.js');

export interface TroveProcessOptions {
  databaseUrl: string;
  dataDir: string;
  /** TROVE_* settings on top of the benchmark's defaults (rate limit off, loopback, info logs). */
  env?: Record<string, string>;
  /** `--max-old-space-size` of Trove's V8 heap, in MiB. */
  heapMiB?: number;
  /** Where Trove's log lines go: the benchmark's own output, or nowhere (default). */
  stdout?: 'inherit' | 'ignore';
}

export interface TroveProcess {
  child: ChildProcess;
  pid: number;
  baseUrl: string;
  /** Milliseconds from the spawn to the first 200 of the readiness probe (polled every 25 ms). */
  startupMs: number;
  /** SIGTERM, then waits for the process to exit; nothing if it already has. */
  stop(): Promise<void>;
}

/** How often the readiness probe is asked while the process starts. */
const READY_POLL_MS = 25;
/** How long a process that has just become ready is left alone before its idle memory is read. */
export const IDLE_SETTLE_MS = 3000;

/** A TCP port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts the build and resolves once its readiness probe answers 200. */
export async function startTroveProcess(options: TroveProcessOptions): Promise<TroveProcess> {
  const port = await freePort();
  const flags = options.heapMiB ? [`--max-old-space-size=${options.heapMiB}`] : [];
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...flags, MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: options.databaseUrl,
      TROVE_DATA_DIR: options.dataDir,
      TROVE_WEB_HOST: '127.0.0.1',
      TROVE_WEB_PORT: String(port),
      TROVE_LOG_FORMAT: 'json',
      TROVE_LOG_LEVEL: 'info',
      TROVE_AUTH_RATE_LIMIT_ENABLED: 'false',
      ...options.env,
    },
    stdio: ['ignore', options.stdout ?? 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Trove exited during start-up (code ${child.exitCode})`);
    }
    const ready = await fetch(`${baseUrl}/api/v1/health/ready`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    await sleep(READY_POLL_MS);
  }
  const startupMs = performance.now() - spawnedAt;
  return { child, pid: child.pid!, baseUrl, startupMs, stop };
}

/** Resident set and its high-water mark (the kernel's exact peak) of a process, in MiB. */
export async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/**
 * The resident set of a process left idle for `IDLE_SETTLE_MS` (no request, its start-up work
 * done), in MiB: what it holds just for running.
 */
export async function idleMemoryOf(pid: number): Promise<number> {
  await sleep(IDLE_SETTLE_MS);
  return (await memoryOf(pid)).rss;
}

/** What a memory watch saw, in MiB. */
export interface MemoryWatch {
  /** Resident set when the watch began. */
  before: number;
  /** Highest resident set sampled, the last sample included. */
  sampledPeak: number;
  /** The kernel's high-water mark at the end (since the watch began if it could be reset). */
  highWaterMark: number;
  /** The larger of the two. */
  peak: number;
  samples: number;
}

/**
 * Watches the resident set of process `pid` until `stop()`: samples VmRSS every `intervalMs`
 * and reads VmHWM at the end; `windowPeak()` tells the highest sample of each span. With `reset`, the kernel's high-water mark is reset first
 * (`clear_refs` 5, Linux 4.0 and later), so the peak is the watched span's own.
 */
export async function watchMemory(
  pid: number,
  options: { intervalMs?: number; reset?: boolean } = {},
): Promise<{ windowPeak(): number; stop(): Promise<MemoryWatch> }> {
  if (options.reset) await writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);
  const before = (await memoryOf(pid)).rss;
  let sampledPeak = before;
  let windowPeak = before;
  let samples = 1;
  const sample = (): Promise<void> =>
    memoryOf(pid).then(
      (memory) => {
        sampledPeak = Math.max(sampledPeak, memory.rss);
        windowPeak = Math.max(windowPeak, memory.rss);
        samples++;
      },
      () => undefined,
    );
  const timer = setInterval(() => void sample(), options.intervalMs ?? 20);
  return {
    /** The highest resident set sampled since the previous call (or the start); starts anew. */
    windowPeak: () => {
      const peak = windowPeak;
      windowPeak = 0;
      return peak;
    },
    stop: async () => {
      clearInterval(timer);
      const end = await memoryOf(pid);
      sampledPeak = Math.max(sampledPeak, end.rss);
      samples++;
      return {
        before,
        sampledPeak,
        highWaterMark: end.peak,
        peak: Math.max(sampledPeak, end.peak),
        samples,
      };
    },
  };
}

/** Runs `work` under a memory watch of process `pid` (see `watchMemory`). */
export async function measureMemory<T>(
  pid: number,
  work: () => Promise<T>,
  options: { intervalMs?: number; reset?: boolean } = {},
): Promise<{ result: T; memory: MemoryWatch }> {
  const watch = await watchMemory(pid, options);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await watch.stop().catch(() => undefined);
    throw error;
  }
  return { result, memory: await watch.stop() };
}
