import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLogging } from './request-logging.js';

describe('requestLogging', () => {
  const lines: { level: number; req: { url: string }; res: { statusCode: number } }[] = [];
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
        done();
      },
    });
    const logging = requestLogging(pino({ level: 'debug' }, sink));
    server = createServer((request, response) => {
      logging(request, response);
      response.statusCode = request.url?.endsWith('/missing') ? 404 : 200;
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const levelOf = async (path: string): Promise<number | undefined> => {
    await fetch(`${base}${path}`);
    await new Promise((resolve) => setImmediate(resolve));
    return lines.findLast((line) => line.req.url === path)?.level;
  };

  it('logs passing health probes at debug, other requests at info, client errors at warn', async () => {
    expect(await levelOf('/api/v1/health/ready')).toBe(pino.levels.values.debug);
    expect(await levelOf('/api/v1/status')).toBe(pino.levels.values.info);
    expect(await levelOf('/api/v1/health/missing')).toBe(pino.levels.values.warn);
  });
});
