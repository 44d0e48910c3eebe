import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import http, { type ClientRequest, type IncomingHttpHeaders } from 'node:http';

export interface ReceivedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

export type Handler = (
  request: ReceivedRequest,
  response: http.ServerResponse,
) => void | Promise<void>;

/** An HTTP server on 127.0.0.1 (a random port) that records requests and answers with `handler`. */
export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      Promise.resolve(handler(request, response)).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens (a server is started there, then closed). */
export async function closedPort(): Promise<number> {
  const server = await startLocalServer((_request, response) => {
    response.end();
  });
  await server.close();
  return server.port;
}

export const sendJson = (response: http.ServerResponse, status: number, body: unknown): void => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/**
 * Records the host of every HTTP client request this process starts, from Node's own
 * diagnostics channel: what the guard let through to a socket.
 */
export function recordClientRequests(): { hosts: string[]; stop(): void } {
  const hosts: string[] = [];
  const onStart = (message: unknown): void => {
    hosts.push((message as { request: ClientRequest }).request.host);
  };
  subscribe('http.client.request.start', onStart);
  return { hosts, stop: () => unsubscribe('http.client.request.start', onStart) };
}
