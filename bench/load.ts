import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One HTTP load: `connections` keep-alive connections sending requests back to back. */
export interface HttpLoad {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** Used in turn, one per request. */
  paths: string[];
  /** JSON bodies, used in turn with the paths. */
  bodies?: string[];
  connections: number;
  seconds: number;
}

export interface HttpLoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Latencies in milliseconds (autocannon records whole milliseconds). */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  socketErrors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

/** Runs autocannon in a child process and resolves with its summary. */
export function runHttpLoad(load: HttpLoad): Promise<HttpLoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./load-process.js', import.meta.url)), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: HttpLoadResult | undefined;
    child.once('message', (message: HttpLoadResult) => (result = message));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      result
        ? resolve(result)
        : reject(new Error(`the load generator stopped (code ${code}, signal ${signal})`)),
    );
    child.send(load);
  });
}
