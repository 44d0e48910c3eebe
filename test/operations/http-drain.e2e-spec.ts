import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { watchForShutdown, type HttpDrain } from '../../src/common/http/graceful-shutdown.js';

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

describe('watchForShutdown(server).drain()', () => {
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

  it('closes idle keep-alive connections at once and stops accepting', async () => {
    const { server, drain, url } = await startServer();
    servers.push(server);
    const agent = keepAlive();
    const first = await get(`${url}/`, agent);
    expect(first).toMatchObject({ status: 200, body: 'ok' });
    const closed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));

    expect(await drain.drain(5000)).toEqual({ forced: 0 });

    await closed;
    expect(server.listening).toBe(false);
    await expect(get(`${url}/`, new http.Agent())).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('answers a request in flight with Connection: close, then finishes', async () => {
    const { server, drain, url, held } = await startServer();
    servers.push(server);
    const answer = get(`${url}/hold`, keepAlive());
    await until(() => held.length === 1);

    let drained = false;
    const draining = drain.drain(5000).then((result) => {
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

    expect(await drain.drain(100)).toEqual({ forced: 1 });

    expect(await answer).toMatchObject({ code: 'ECONNRESET' });
  });
});
