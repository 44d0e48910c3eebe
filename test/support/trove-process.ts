import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const LOADER = path.join(ROOT, 'test', 'support', 'typescript-loader.mjs');
const MAIN = path.join(ROOT, 'src', 'main.ts');
const LISTENING = 'Trove is listening';

/** One JSON line of Trove's log. */
export interface LogLine {
  level: number;
  msg: string;
  component?: string;
  [key: string]: unknown;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** `performance.now()` when the process exited. */
  at: number;
}

export interface TroveProcess {
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>` of the listening process. */
  readonly baseUrl: string;
  readonly dataDir: string;
  /** Every log line so far (JSON lines; anything else as `{ level: 0, msg }`). */
  readonly logs: LogLine[];
  /** Settles once the process has exited. */
  readonly exited: Promise<ProcessExit>;
  /** Sends a signal; resolves with `performance.now()` just before it was sent. */
  signal(signal: NodeJS.Signals): number;
  /** Kills the process if it still runs, and removes the data directory unless it was given. */
  dispose(): Promise<void>;
}

export interface TroveProcessOptions {
  /** Configuration variables on top of the defaults below. */
  env?: Record<string, string>;
  /** A data directory to use (and keep); a new temporary one otherwise. */
  dataDir?: string;
  /** How long to wait for "Trove is listening" (the process compiles the sources as it loads them, which is slow on a busy machine). */
  startTimeoutMs?: number;
  /** Node options put before the entry point, e.g. another `--import` (loaded-modules.mjs). */
  nodeOptions?: string[];
}

/**
 * Starts Trove as a real child process from its TypeScript sources (no build: the ESM loader in
 * `typescript-loader.mjs` compiles each module as it is imported), on its embedded database in a
 * temporary `TROVE_DATA_DIR` and on a free port of 127.0.0.1, and waits until it listens. Its log
 * level is `debug`, so the embedded PostgreSQL's own log is in `logs`.
 */
export async function startTroveProcess(options: TroveProcessOptions = {}): Promise<TroveProcess> {
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'trove-process-')));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TROVE_DATA_DIR: dataDir,
    TROVE_WEB_HOST: '127.0.0.1',
    TROVE_WEB_PORT: '0',
    TROVE_LOG_LEVEL: 'debug',
    TROVE_LOG_FORMAT: 'json',
    TROVE_BARCODE_UPCITEMDB_URL: '',
    TROVE_BARCODE_OPENFOODFACTS_URL: '',
    ...options.env,
  };
  const nodeOptions = options.nodeOptions ?? [];
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', '--import', LOADER, ...nodeOptions, MAIN],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const logs: LogLine[] = [];
  const exited = new Promise<ProcessExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );
  let listening: (url: string) => void = () => undefined;
  const url = new Promise<string>((resolve) => (listening = resolve));
  const collect = (stream: NodeJS.ReadableStream): void => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const text of lines) {
        if (!text.trim()) continue;
        let line: LogLine;
        try {
          line = JSON.parse(text) as LogLine;
        } catch {
          line = { level: 0, msg: text };
        }
        logs.push(line);
        if (line.msg === LISTENING && typeof line.url === 'string') listening(line.url);
      }
    });
  };
  collect(child.stdout);
  collect(child.stderr);

  const dispose = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
  };

  const timeoutMs = options.startTimeoutMs ?? 180_000;
  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('Trove did not start in time')), timeoutMs);
    void exited.then((exit) =>
      reject(new Error(`Trove exited during start-up (code ${exit.code}, signal ${exit.signal})`)),
    );
  });
  let baseUrl: string;
  try {
    baseUrl = await Promise.race([url, failed]);
  } catch (error) {
    const tail = logs
      .slice(-20)
      .map((line) => line.msg)
      .join('\n');
    await dispose();
    throw new Error(`${(error as Error).message}\n${tail}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
  failed.catch(() => undefined);

  return {
    child,
    baseUrl,
    dataDir,
    logs,
    exited,
    signal: (signal) => {
      const at = performance.now();
      child.kill(signal);
      return at;
    },
    dispose,
  };
}
