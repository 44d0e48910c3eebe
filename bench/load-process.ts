import autocannon from 'autocannon';
import type { HttpLoad, HttpLoadResult } from './load.js';

/**
 * A child process that runs one autocannon load, so the load generator does not share the event
 * loop of the Trove app it measures (autocannon also expects the main thread of its process).
 * It gets the load as its one IPC message and answers with the summary. Paths and bodies are
 * used in turn, one per request.
 */
async function run(load: HttpLoad): Promise<HttpLoadResult> {
  let sent = 0;
  const rotating = load.paths.length > 1 || (load.bodies?.length ?? 0) > 1;
  const result = await autocannon({
    url: `${load.url}${load.paths[0]}`,
    connections: load.connections,
    duration: load.seconds,
    method: load.method,
    headers: load.headers,
    body: load.bodies?.[0],
    requests: rotating
      ? [
          {
            setupRequest: (request) => {
              const n = sent++;
              return {
                ...request,
                path: load.paths[n % load.paths.length],
                body: load.bodies?.[n % load.bodies.length],
              };
            },
          },
        ]
      : undefined,
  });
  const completed = result['1xx'] + result['2xx'] + result['3xx'] + result.non2xx;
  return {
    requests: completed,
    seconds: result.duration,
    requestsPerSecond: completed / result.duration,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    socketErrors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]),
    ),
  };
}

process.once('message', (load: HttpLoad) => {
  void run(load).then((result) => process.send!(result, () => process.disconnect()));
});
