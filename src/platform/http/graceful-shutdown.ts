import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';

export interface DrainOptions {
  /**
   * How long the server keeps accepting connections and answering requests (each with
   * `Connection: close`) after the drain starts, while readiness fails and load balancers stop
   * sending here. Idle keep-alive connections are left open for as long.
   */
  windowMs: number;
  /** After the window: how long requests still running may take before they are cut off. */
  timeoutMs: number;
}

/**
 * Stops an HTTP server without cutting off a request that was already sent: the one shutdown
 * mechanism of the web server. The readiness probe reports `stopping`.
 *
 * `watch(server)` sees a server's requests before its application does (the first `request`
 * listener), so that on `drain()` every answer can be told to close its connection.
 */
@Injectable()
export class HttpDrain {
  private server: Server | undefined;
  private draining = false;
  /** Responses not yet closed. */
  private readonly open = new Set<ServerResponse>();

  /** Whether `drain()` was called: the server is about to stop, and is not ready. */
  get stopping(): boolean {
    return this.draining;
  }

  watch(server: Server): this {
    if (this.server) throw new Error('already watching a server');
    this.server = server;
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      if (this.draining) response.setHeader('Connection', 'close');
      this.open.add(response);
      response.once('close', () => this.open.delete(response));
    });
    return this;
  }

  /**
   * Fails readiness and answers every request from now on, and every one in flight whose
   * headers are not sent yet, with `Connection: close`, while still accepting connections for
   * `windowMs`. Then stops accepting and closes idle keep-alive connections (idle for the whole
   * window, or since an answer begun before the drain ended on them): a request its client sent
   * before the drain has long been read by then, so its connection is not idle and the request is
   * answered rather than reset. Resolves when every connection is gone, or `timeoutMs` later with
   * the rest cut off.
   */
  async drain({ windowMs, timeoutMs }: DrainOptions): Promise<{ forced: number }> {
    const server = this.server;
    if (!server) throw new Error('no server is watched');
    if (this.draining) throw new Error('the server is already draining');
    this.draining = true;
    for (const response of this.open) {
      if (!response.headersSent) response.setHeader('Connection', 'close');
    }
    await sleep(windowMs);

    // Answers that were already on their way with keep-alive: close their connection once idle.
    const closeIdleSoon = (): void => {
      setImmediate(() => server.closeIdleConnections());
    };
    for (const response of this.open) {
      if (response.headersSent && !response.writableFinished)
        response.once('finish', closeIdleSoon);
    }
    // Stops accepting and closes the connections idle now.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const outcome = await Promise.race([closed, timedOut]);
    clearTimeout(timer);
    if (outcome !== 'timeout') return { forced: 0 };
    const forced = this.open.size;
    server.closeAllConnections();
    await closed;
    return { forced };
  }
}

/** An `HttpDrain` watching `server`. */
export function watchForShutdown(server: Server): HttpDrain {
  return new HttpDrain().watch(server);
}
