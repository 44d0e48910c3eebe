import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OutboundConnectionFailed,
  OutboundRequestRefused,
  OutboundResponseTooLarge,
  OutboundTimeout,
  OutboundTooManyRedirects,
} from '../../src/platform/outbound/outbound-errors.js';
import {
  OutboundHttpService,
  type HostResolver,
} from '../../src/platform/outbound/outbound-http.service.js';
import {
  closedPort,
  recordClientRequests,
  sendJson,
  startLocalServer,
  type LocalServer,
} from './local-servers.js';

const LIMITS = { timeoutMs: 2000, maxBytes: 1024 * 1024 };
const LOOPBACK = ['127.0.0.1/32'];

const guard = (allowNets: string[] = LOOPBACK, resolver?: HostResolver): OutboundHttpService =>
  new OutboundHttpService({ allowNets, userAgent: 'Trove/test', resolver });

/** A resolver from a fixed table, counting its calls; unknown names fail as DNS would. */
function tableResolver(table: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = (host: string): Promise<LookupAddress[]> => {
    calls.push(host);
    const addresses = table[host];
    if (!addresses) {
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }),
      );
    }
    return Promise.resolve(
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  return Object.assign(resolver, { calls });
}

async function refusal(promise: Promise<unknown>): Promise<OutboundRequestRefused> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundRequestRefused);
  return error as OutboundRequestRefused;
}

describe('OutboundHttpService against local servers', () => {
  let server: LocalServer;
  let other: LocalServer;

  beforeAll(async () => {
    server = await startLocalServer((request, response) => {
      const url = new URL(request.url, 'http://localhost');
      const hop = Number(url.searchParams.get('hops') ?? '0');
      switch (url.pathname) {
        case '/hello':
          response.writeHead(200, { 'content-type': 'text/plain', 'x-answer': '42' });
          response.end('hello there');
          return;
        case '/echo':
          sendJson(response, 201, { method: request.method, body: request.body });
          return;
        case '/teapot':
          response.writeHead(418);
          response.end('short and stout');
          return;
        case '/chain':
          if (hop === 0) {
            response.writeHead(200);
            response.end('arrived');
          } else {
            response.writeHead(302, { location: `/chain?hops=${hop - 1}` });
            response.end();
          }
          return;
        case '/to':
          response.writeHead(Number(url.searchParams.get('status') ?? '302'), {
            location: url.searchParams.get('location') ?? '/',
          });
          response.end();
          return;
        case '/hang':
          return; // never answers
        case '/trickle':
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.write('a little, then nothing');
          return;
        case '/big-declared':
          response.writeHead(200, { 'content-length': String(4096) });
          response.end(Buffer.alloc(4096, 1));
          return;
        case '/big-chunked':
          response.writeHead(200, { 'content-type': 'application/octet-stream' });
          for (let index = 0; index < 64; index++) response.write(Buffer.alloc(1024, 2));
          response.end();
          return;
        default:
          sendJson(response, 404, { error: 'not here' });
      }
    });
    other = await startLocalServer((request, response) => {
      sendJson(response, 200, {
        headers: request.headers,
        method: request.method,
        body: request.body,
      });
    });
  });
  afterAll(async () => {
    await server.close();
    await other.close();
  });

  describe('allowed requests', () => {
    it('answers status, headers and body from an address inside an allowed net', async () => {
      const response = await guard().fetch(`${server.url}/hello`, {
        ...LIMITS,
        accept: 'text/plain',
        headers: { 'X-Custom': 'yes' },
      });
      expect(response.status).toBe(200);
      expect(response.headers['x-answer']).toBe('42');
      expect(response.body.toString()).toBe('hello there');
      expect(response.url).toBe(`${server.url}/hello`);
      const received = server.requests.at(-1);
      expect(received?.headers).toMatchObject({
        'user-agent': 'Trove/test',
        accept: 'text/plain',
        'x-custom': 'yes',
        'accept-encoding': 'identity',
      });
    });

    it('answers non-2xx statuses as they are', async () => {
      const response = await guard().fetch(`${server.url}/teapot`, LIMITS);
      expect(response.status).toBe(418);
      expect(response.body.toString()).toBe('short and stout');
    });

    it('sends a method and a body', async () => {
      const response = await guard().fetch(`${server.url}/echo`, {
        ...LIMITS,
        method: 'post',
        headers: { 'content-type': 'application/json' },
        body: '{"hi":1}',
      });
      expect(response.status).toBe(201);
      expect(JSON.parse(response.body.toString())).toEqual({ method: 'POST', body: '{"hi":1}' });
    });

    it('looks the host name up once and connects to the address it checked', async () => {
      const resolver = tableResolver({ 'provider.test': ['127.0.0.1'] });
      const response = await guard(LOOPBACK, resolver).fetch(
        `http://provider.test:${other.port}/lookup`,
        LIMITS,
      );
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body.toString()).headers.host).toBe(`provider.test:${other.port}`);
      expect(resolver.calls).toEqual(['provider.test']);
    });

    it('resolves localhost itself and allows it when its addresses are allowed', async () => {
      const response = await guard(['127.0.0.0/8', '::1/128']).fetch(
        `http://localhost:${server.port}/hello`,
        LIMITS,
      );
      expect(response.body.toString()).toBe('hello there');
    });
  });

  describe('refusals before connecting', () => {
    let recorder: ReturnType<typeof recordClientRequests>;
    beforeAll(() => {
      recorder = recordClientRequests();
    });
    afterAll(() => recorder.stop());

    it.each([
      ['127.0.0.1', '127.0.0.1 is a loopback address'],
      ['[::1]', '::1 is a loopback address'],
      ['[::ffff:127.0.0.1]', '127.0.0.1 is a loopback address'],
      ['0.0.0.0', '0.0.0.0 is an unspecified address'],
      ['2130706433', '127.0.0.1 is a loopback address'],
    ])('refuses the loopback server at %s when no net is allowed', async (host, reason) => {
      const before = server.requests.length;
      const error = await refusal(guard([]).fetch(`http://${host}:${server.port}/hello`, LIMITS));
      expect(error.reason).toBe(reason);
      expect(server.requests.length).toBe(before);
    });

    it('refuses localhost by the addresses it resolves to', async () => {
      const before = server.requests.length;
      const error = await refusal(guard([]).fetch(`http://localhost:${server.port}/hello`, LIMITS));
      expect(error.reason).toMatch(
        /^(127\.0\.0\.1|::1) is a loopback address \(localhost resolves to it\)$/,
      );
      expect(server.requests.length).toBe(before);
    });

    it.each([
      ['http://10.0.0.1/photo.jpg', '10.0.0.1 is a private address'],
      ['http://172.20.1.1/', '172.20.1.1 is a private address'],
      ['http://192.168.0.1/', '192.168.0.1 is a private address'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address'],
      ['http://169.254.10.10/', '169.254.10.10 is a link-local address'],
      ['http://[fe80::1]/', 'fe80::1 is a link-local address'],
      ['http://[fd00::1]/', 'fd00::1 is a private (unique local) address'],
      ['http://100.64.0.1/', '100.64.0.1 is a carrier-grade NAT address'],
      ['http://224.0.0.1/', '224.0.0.1 is a multicast address'],
      ['http://[::ffff:10.0.0.1]/', '10.0.0.1 is a private address'],
      [
        'http://metadata.google.internal/computeMetadata/v1/',
        'metadata.google.internal is a cloud metadata endpoint',
      ],
    ])('refuses %s without a connection attempt', async (url, reason) => {
      const resolver = tableResolver({});
      const error = await refusal(guard(LOOPBACK, resolver).fetch(url, LIMITS));
      expect(error.reason).toBe(reason);
      expect(resolver.calls).toEqual([]);
      expect(recorder.hosts).toEqual([]);
    });

    it('refuses a name that resolves to a private address, and one with any private address', async () => {
      const resolver = tableResolver({
        'intranet.test': ['10.1.2.3'],
        'mixed.test': ['93.184.215.14', '192.168.1.1'],
      });
      const intranet = await refusal(
        guard(LOOPBACK, resolver).fetch('http://intranet.test/', LIMITS),
      );
      expect(intranet.reason).toBe('10.1.2.3 is a private address (intranet.test resolves to it)');
      const mixed = await refusal(guard(LOOPBACK, resolver).fetch('http://mixed.test/', LIMITS));
      expect(mixed.reason).toBe('192.168.1.1 is a private address (mixed.test resolves to it)');
      expect(recorder.hosts).toEqual([]);
    });

    it.each([
      ['ftp://127.0.0.1/file', 'scheme ftp: is not http or https'],
      ['file:///etc/passwd', 'scheme file: is not http or https'],
      ['gopher://127.0.0.1:70/', 'scheme gopher: is not http or https'],
      ['http://user:secret@127.0.0.1/', 'URLs with user-info are not allowed'],
      ['http://user@127.0.0.1/', 'URLs with user-info are not allowed'],
      ['/relative/path', 'not a valid absolute URL'],
      ['not a url', 'not a valid absolute URL'],
    ])('refuses the URL %s', async (url, reason) => {
      const error = await refusal(guard().fetch(url, LIMITS));
      expect(error.reason).toBe(reason);
      expect(recorder.hosts).toEqual([]);
    });

    it('names only the origin in its message, never the path or query', async () => {
      const error = await refusal(
        guard().fetch('http://10.0.0.1:8080/hook/secret-token?key=abc', LIMITS),
      );
      expect(error.message).toBe(
        'outbound request to http://10.0.0.1:8080 refused: 10.0.0.1 is a private address',
      );
      expect(error.origin).toBe('http://10.0.0.1:8080');
    });
  });

  describe('redirects', () => {
    it('follows up to 3 redirects', async () => {
      const response = await guard().fetch(`${server.url}/chain?hops=3`, LIMITS);
      expect(response.status).toBe(200);
      expect(response.body.toString()).toBe('arrived');
      expect(response.url).toBe(`${server.url}/chain?hops=0`);
    });

    it('refuses a 4th redirect', async () => {
      const error = await guard()
        .fetch(`${server.url}/chain?hops=4`, LIMITS)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OutboundTooManyRedirects);
      expect((error as Error).message).toBe(
        `outbound request to ${server.url} redirected more than 3 times`,
      );
    });

    it('checks every hop: a redirect to a metadata or private address is refused unsent', async () => {
      const recorder = recordClientRequests();
      try {
        for (const [location, reason] of [
          [
            'http://169.254.169.254/latest/meta-data/',
            '169.254.169.254 is a cloud metadata address',
          ],
          ['http://10.0.0.1/', '10.0.0.1 is a private address'],
          ['ftp://example.com/', 'scheme ftp: is not http or https'],
        ]) {
          const error = await refusal(
            guard().fetch(`${server.url}/to?location=${encodeURIComponent(location)}`, LIMITS),
          );
          expect(error.reason).toBe(reason);
        }
        expect(recorder.hosts).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
      } finally {
        recorder.stop();
      }
    });

    it('resolves each hop once, refusing a hop whose name resolves privately', async () => {
      const resolver = tableResolver({ 'rebind.test': ['10.9.9.9'] });
      const error = await refusal(
        guard(LOOPBACK, resolver).fetch(
          `${server.url}/to?location=${encodeURIComponent('http://rebind.test/')}`,
          LIMITS,
        ),
      );
      expect(error.reason).toBe('10.9.9.9 is a private address (rebind.test resolves to it)');
      expect(resolver.calls).toEqual(['rebind.test']);
    });

    it('drops credentials on a redirect to another origin and keeps the user agent', async () => {
      const response = await guard().fetch(
        `${server.url}/to?location=${encodeURIComponent(`${other.url}/landing`)}`,
        {
          ...LIMITS,
          accept: 'application/json',
          headers: { Authorization: 'Bearer secret', user_key: 'secret', Cookie: 'a=b' },
        },
      );
      const { headers } = JSON.parse(response.body.toString());
      expect(headers['user-agent']).toBe('Trove/test');
      expect(headers.accept).toBe('application/json');
      expect(headers).not.toHaveProperty('authorization');
      expect(headers).not.toHaveProperty('user_key');
      expect(headers).not.toHaveProperty('cookie');
      expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer secret');
    });

    it('turns a POST into a GET without body on 303, and keeps it on 307', async () => {
      const post = {
        ...LIMITS,
        method: 'POST',
        body: 'payload',
        headers: { 'content-type': 'text/plain' },
      };
      const seeOther = await guard().fetch(
        `${server.url}/to?status=303&location=${encodeURIComponent(`${other.url}/after`)}`,
        post,
      );
      expect(JSON.parse(seeOther.body.toString())).toMatchObject({ method: 'GET', body: '' });
      const temporary = await guard().fetch(
        `${server.url}/to?status=307&location=${encodeURIComponent(`${other.url}/after`)}`,
        post,
      );
      expect(JSON.parse(temporary.body.toString())).toMatchObject({
        method: 'POST',
        body: 'payload',
      });
    });
  });

  describe('time and size limits', () => {
    it('times out on a server that never answers, within the limit', async () => {
      const started = Date.now();
      const error = await guard()
        .fetch(`${server.url}/hang`, { ...LIMITS, timeoutMs: 300 })
        .catch((caught: unknown) => caught);
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(OutboundTimeout);
      expect((error as Error).message).toBe(
        `outbound request to ${server.url} timed out after 300 ms`,
      );
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(5000);
    });

    it('times out on a body that never ends', async () => {
      const error = await guard()
        .fetch(`${server.url}/trickle`, { ...LIMITS, timeoutMs: 300 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OutboundTimeout);
    });

    it('refuses a body whose declared length exceeds the limit', async () => {
      const error = await guard()
        .fetch(`${server.url}/big-declared`, { ...LIMITS, maxBytes: 4095 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OutboundResponseTooLarge);
      expect((error as Error).message).toBe(
        `response from ${server.url} exceeds the limit of 4095 bytes`,
      );
    });

    it('aborts a chunked body once it exceeds the limit', async () => {
      const error = await guard()
        .fetch(`${server.url}/big-chunked`, { ...LIMITS, maxBytes: 10_000 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OutboundResponseTooLarge);
    });

    it('accepts a body exactly at the limit', async () => {
      const response = await guard().fetch(`${server.url}/big-declared`, {
        ...LIMITS,
        maxBytes: 4096,
      });
      expect(response.body.length).toBe(4096);
    });
  });

  describe('connection failures', () => {
    it('reports a refused connection', async () => {
      const port = await closedPort();
      const error = await guard()
        .fetch(`http://127.0.0.1:${port}/`, LIMITS)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OutboundConnectionFailed);
      expect((error as Error).message).toMatch(
        new RegExp(`^outbound request to http://127\\.0\\.0\\.1:${port} failed: .*ECONNREFUSED`),
      );
    });

    it('reports a name that does not resolve', async () => {
      const error = await guard(LOOPBACK, tableResolver({}))
        .fetch('http://nowhere.test/', LIMITS)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OutboundConnectionFailed);
      expect((error as Error).message).toBe(
        'outbound request to http://nowhere.test failed: getaddrinfo ENOTFOUND nowhere.test',
      );
    });
  });
});
