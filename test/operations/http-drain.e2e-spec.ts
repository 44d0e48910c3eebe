import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { watchForShutdown, type HttpDrain } from '../../src/platform/http/graceful-shutdown.js';

interface Held {
  release: () => void;
}

/** A server whose `/hold` requests wait until released, and whose other requests answer at once. */
async function startServer(): Promise<{
  server: http.Server;
  drain: HttpDrain;
  url: string;
  held: Held[];
}> {
  const held: Held[] = [];
  const server = http.createServer((request, response) => {
    if (request.url === '/hold') {
      response.setHeader('Content-Type', 'text/plain');
      held.push({ release: () => response.end('released') });
      return;
    }
    response.end('ok');
  });
  const drain = watchForShutdown(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, drain, url: `http://127.0.0.1:${port}`, held };
}

function get(
  url: string,
  agent: http.Agent,
): Promise<{ status: number; body: string; connection?: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.once('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          connection: response.headers.connection,
          socket: request.socket!,
        }),
      );
    });
    request.once('error', reject);
  });
}

const until = async (condition: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('watchForShutdown(server).drain({ windowMs, timeoutMs })', () => {
  const agents: http.Agent[] = [];
  const servers: http.Server[] = [];
  afterEach(() => {
    for (const agent of agents.splice(0)) agent.destroy();
    for (const server of servers.splice(0)) server.closeAllConnections();
  });
  const keepAlive = (): http.Agent => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    return agent;
  };

  it('without a window, closes idle keep-alive connections at once and stops accepting', async () => {
    const { server, drain, url } = await startServer();
    servers.push(server);
    const agent = keepAlive();
    const first = await get(`${url}/`, agent);
    expect(first).toMatchObject({ status: 200, body: 'ok' });
    const closed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));

    expect(await drain.drain({ windowMs: 0, timeoutMs: 5000 })).toEqual({ forced: 0 });

    await closed;
    expect(server.listening).toBe(false);
    await expect(get(`${url}/`, new http.Agent())).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('within the window, keeps accepting and answers everything with Connection: close, and closes idle keep-alive connections only after it', async () => {
    const { server, drain, url } = await startServer();
    servers.push(server);
    const agent = keepAlive();
    const first = await get(`${url}/`, agent);
    expect(first).toMatchObject({ status: 200, body: 'ok' });
    expect(first.connection).not.toBe('close');
    let idleClosed = false;
    first.socket.once('close', () => (idleClosed = true));

    let drained = false;
    const draining = drain.drain({ windowMs: 300, timeoutMs: 5000 }).then((result) => {
      drained = true;
      return result;
    });
    expect(drain.stopping).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(idleClosed).toBe(false);
    expect(server.listening).toBe(true);

    // A new connection is still accepted, and answered with Connection: close.
    const fresh = await get(`${url}/`, new http.Agent());
    expect(fresh).toMatchObject({ status: 200, body: 'ok', connection: 'close' });
    // The idle keep-alive connection is still served, and then closed with its answer.
    const reused = await get(`${url}/`, agent);
    expect(reused.socket).toBe(first.socket);
    expect(reused).toMatchObject({ status: 200, body: 'ok', connection: 'close' });
    expect(drained).toBe(false);

    expect(await draining).toEqual({ forced: 0 });
    expect(server.listening).toBe(false);
    await expect(get(`${url}/`, new http.Agent())).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('closes a keep-alive connection left idle for the whole window once the window is over', async () => {
    const { server, drain, url } = await startServer();
    servers.push(server);
    const first = await get(`${url}/`, keepAlive());
    // Whether the server still listened when the idle connection was closed.
    let listeningAtClose: boolean | undefined;
    first.socket.once('close', () => (listeningAtClose = server.listening));

    expect(await drain.drain({ windowMs: 200, timeoutMs: 5000 })).toEqual({ forced: 0 });

    await until(() => listeningAtClose !== undefined);
    expect(listeningAtClose).toBe(false);
  });

  it('answers a request in flight with Connection: close, then finishes', async () => {
    const { server, drain, url, held } = await startServer();
    servers.push(server);
    const answer = get(`${url}/hold`, keepAlive());
    await until(() => held.length === 1);

    let drained = false;
    const draining = drain.drain({ windowMs: 0, timeoutMs: 5000 }).then((result) => {
      drained = true;
      return result;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(drained).toBe(false);
    held[0].release();

    expect(await answer).toMatchObject({ status: 200, body: 'released', connection: 'close' });
    expect(await draining).toEqual({ forced: 0 });
  });

  it('cuts off what still runs at the timeout', async () => {
    const { server, drain, url, held } = await startServer();
    servers.push(server);
    const answer = get(`${url}/hold`, keepAlive()).catch((error: NodeJS.ErrnoException) => error);
    await until(() => held.length === 1);

    expect(await drain.drain({ windowMs: 0, timeoutMs: 100 })).toEqual({ forced: 1 });

    expect(await answer).toMatchObject({ code: 'ECONNRESET' });
  });
});
