import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Stops an HTTP server without cutting off a request that was already sent. */
export interface HttpDrain {
  /** Whether `drain()` was called. */
  readonly stopping: boolean;
  /**
   * Stops accepting connections, answers what is in flight (and anything still arriving on an
   * open connection) with `Connection: close`, and closes idle keep-alive connections at once.
   * Resolves when every connection is gone, or after `timeoutMs` with the rest cut off.
   */
  drain(timeoutMs: number): Promise<{ forced: number }>;
}

/**
 * Watches a server's requests from before its application sees them (the first `request`
 * listener), so that on `drain()` every open response can be told to close its connection.
 *
 * Idle connections are closed only after one turn of the event loop: bytes of a request that a
 * client sent before the signal are then read and parsed, so its connection is no longer idle
 * and the request is answered rather than reset.
 */
export function watchForShutdown(server: Server): HttpDrain {
  let stopping = false;
  const open = new Set<ServerResponse>();

  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (stopping) {
      response.setHeader('Connection', 'close');
      return;
    }
    open.add(response);
    response.once('close', () => open.delete(response));
  });

  const closeIdleSoon = (): void => {
    setImmediate(() => server.closeIdleConnections());
  };

  return {
    get stopping() {
      return stopping;
    },
    async drain(timeoutMs) {
      if (stopping) throw new Error('the server is already draining');
      stopping = true;
      for (const response of open) {
        if (!response.headersSent) response.setHeader('Connection', 'close');
        // Already on its way with keep-alive: close the connection once it is idle.
        else response.once('finish', closeIdleSoon);
      }
      await nextTurn();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const outcome = await Promise.race([closed, timedOut]);
      clearTimeout(timer);
      if (outcome !== 'timeout') return { forced: 0 };
      const forced = open.size;
      server.closeAllConnections();
      await closed;
      return { forced };
    },
  };
}
