import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLogging } from './request-logging.js';

describe('requestLogging', () => {
  const lines: {
    level: number;
    msg: string;
    req: { id: string; method: string; url: string };
    res: { statusCode: number };
    responseTime: number;
  }[] = [];
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
      if (request.url?.endsWith('/failing')) response.statusCode = 500;
      if (request.url?.endsWith('/unavailable')) response.statusCode = 503;
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const lineOf = async (
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ line: (typeof lines)[number] | undefined; response: Response }> => {
    const response = await fetch(`${base}${path}`, { headers });
    await response.text();
    for (
      let i = 0;
      i < 100 && !lines.some((line) => line.req.url.startsWith(path.split('?')[0]));
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return {
      line: lines.findLast((line) => line.req.url.startsWith(path.split('?')[0])),
      response,
    };
  };
  const levelOf = async (path: string): Promise<number | undefined> =>
    (await lineOf(path)).line?.level;

  it('logs passing health probes at debug, failing ones at warn, other requests at info, client errors at warn', async () => {
    expect(await levelOf('/api/v1/health/ready')).toBe(pino.levels.values.debug);
    expect(await levelOf('/api/v1/health/unavailable')).toBe(pino.levels.values.warn);
    expect(await levelOf('/api/v1/unavailable')).toBe(pino.levels.values.error);
    expect(await levelOf('/api/v1/status')).toBe(pino.levels.values.info);
    expect(await levelOf('/api/v1/health/missing')).toBe(pino.levels.values.warn);
    expect(await levelOf('/api/v1/failing')).toBe(pino.levels.values.error);
  });

  it('writes the id, method, redacted URL, status and time, and echoes the id', async () => {
    const { line, response } = await lineOf('/api/v1/entities?access_token=secret&page=2');
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(line).toEqual({
      level: pino.levels.values.info,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      msg: 'request completed',
      req: { id, method: 'GET', url: '/api/v1/entities?access_token=[redacted]&page=2' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });

  it('keeps a sane X-Request-Id of the caller and replaces any other', async () => {
    const kept = await lineOf('/api/v1/kept', { 'x-request-id': 'abc-123.x:y_z' });
    expect(kept.response.headers.get('x-request-id')).toBe('abc-123.x:y_z');
    expect(kept.line?.req.id).toBe('abc-123.x:y_z');
    const replaced = await lineOf('/api/v1/replaced', { 'x-request-id': 'no spaces <here>' });
    expect(replaced.response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
