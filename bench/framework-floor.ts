import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { validateEnvironment } from '../src/platform/config/env.js';
import { runHttpLoad, type HttpLoadResult } from './load.js';
import { idleMemoryOf, watchMemory } from './trove-process.js';

/**
 * What the framework alone reaches on the get scenario: the raw prepared get behind a bare
 * NestJS route on platform-express (framework-floor-process.ts), loaded as Trove's get is. Its
 * rate bounds what any NestJS-on-Express app serving that statement can reach on the machine,
 * whatever it does per request; its resident set, what such an app takes under the same load.
 */
export interface FrameworkFloor {
  app: HttpLoadResult;
  /** Its req/s as a share of the raw prepared get's of the same run. */
  rawGetRatio: number;
  /** Its resident set when listening and its peak (kernel high-water mark), in MiB. */
  startRssMiB: number;
  peakRssMiB: number;
  /** Its resident set once listening and left idle as Trove's is (`idleMemoryOf`), in MiB. */
  idleRssMiB: number;
  /** Milliseconds from the fork to listening. */
  startupMs: number;
}

export interface FrameworkFloorOptions {
  databaseUrl: string;
  groupId: string;
  poolSize: number;
  /** The get scenario's paths, `/api/v1/entities/{id}`. */
  paths: string[];
  connections: number;
  seconds: number;
  warmupSeconds: number;
  rawGetRequestsPerSecond: number;
}

export async function measureFrameworkFloor(
  options: FrameworkFloorOptions,
): Promise<FrameworkFloor> {
  const forkedAt = performance.now();
  const child = fork(fileURLToPath(new URL('./framework-floor-process.js', import.meta.url)), [], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: options.databaseUrl,
      FLOOR_GROUP_ID: options.groupId,
      FLOOR_POOL_SIZE: String(options.poolSize),
      // Trove's default, so that the two heaps grow alike.
      FLOOR_HEAP_GROWTH_PERCENT: String(validateEnvironment({}).TROVE_HEAP_GROWTH_PERCENT),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message: { port: number }) => resolve(message.port));
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the framework floor app exited (${code})`)));
    });
    const startupMs = performance.now() - forkedAt;
    const idleRssMiB = await idleMemoryOf(child.pid!);
    const memory = await watchMemory(child.pid!, { intervalMs: 250 });
    const load = (seconds: number): ReturnType<typeof runHttpLoad> =>
      runHttpLoad({
        url: `http://127.0.0.1:${port}`,
        method: 'GET',
        headers: {},
        paths: options.paths,
        connections: options.connections,
        seconds,
      });
    if (options.warmupSeconds > 0) await load(options.warmupSeconds);
    const app = await load(options.seconds);
    const watched = await memory.stop();
    return {
      app,
      rawGetRatio: app.requestsPerSecond / options.rawGetRequestsPerSecond,
      startRssMiB: watched.before,
      peakRssMiB: watched.peak,
      idleRssMiB,
      startupMs,
    };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  }
}
