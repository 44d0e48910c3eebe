import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getMetricsFromIterator, type PromMetrics } from 'prom2javascript';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { mailEnv, linkIn, tokenOf } from '../password-reset/password-reset-helpers.js';
import { as, createEntity } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import { startSmtpStandIn, type SmtpStandIn } from '../support/smtp-stand-in.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTroveProcess, type TroveProcess } from '../support/trove-process.js';
import { listeningPorts } from './listening-ports.js';
import { attribute, startOtlpReceiver, type OtlpReceiver } from './otlp-receiver.js';
import {
  COLLECTOR_KEY,
  eventually,
  otlpEnv,
  serverSpan as receivedServerSpan,
  spansOf as receivedSpansOf,
  freePort,
  sqlSpansOf,
  SPAN_KIND_CLIENT,
  SPAN_KIND_SERVER,
} from './telemetry-helpers.js';

/** A stand-in webhook receiver keeping the headers of each request. */
async function startHookStandIn(): Promise<{
  server: Server;
  url: string;
  received: Array<{ url: string; headers: IncomingHttpHeaders }>;
}> {
  const received: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

/** One series of a scrape: its labels and value, or a histogram's buckets, count and sum. */
interface Series {
  labels: Record<string, string>;
  value?: number;
  buckets?: Record<string, number>;
  count?: number;
  sum?: number;
}

/** Every series of the family `name` in a scrape parsed as Prometheus text. */
const series = (families: PromMetrics, name: string): Series[] => families[name]?.data ?? [];

const labelled = (
  families: PromMetrics,
  name: string,
  labels: Record<string, string>,
): Series | undefined =>
  series(families, name).find((one) =>
    Object.entries(labels).every(([key, value]) => one.labels[key] === value),
  );

describe('telemetry on: traces, metrics and logs', () => {
  let receiver: OtlpReceiver;
  let smtp: SmtpStandIn;
  let hook: Awaited<ReturnType<typeof startHookStandIn>>;
  let database: TestDatabase;
  let trove: TroveProcess;
  let metricsPort: number;
  let app: { http: ReturnType<typeof supertest> };
  let owner: Session;

  const scrape = async (): Promise<PromMetrics> => {
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    return getMetricsFromIterator(text.split('\n')[Symbol.iterator]());
  };
  const spansOf = (traceId: string) => receivedSpansOf(receiver, traceId);
  const serverSpan = (name: string, traceId?: string) =>
    receivedServerSpan(receiver, name, traceId);

  beforeAll(async () => {
    [receiver, smtp, hook, database, metricsPort] = await Promise.all([
      startOtlpReceiver(),
      startSmtpStandIn(),
      startHookStandIn(),
      createTestDatabase(),
      freePort(),
    ]);
    trove = await startTroveProcess({
      env: {
        DATABASE_URL: database.url,
        ...otlpEnv(receiver, 'http/json'),
        TROVE_METRICS_PORT: String(metricsPort),
        TROVE_JOBS_POLL_INTERVAL: '1',
        TROVE_OUTBOUND_ALLOW_NETS: '127.0.0.1/32',
        TROVE_AUTH_RATE_LIMIT_MAX_ATTEMPTS: '2',
        ...mailEnv(smtp),
      },
    });
    app = { http: supertest(trove.baseUrl) };
    owner = await signUp(app, { name: 'Ada', password: 'owner password 7Q' });
  });

  afterAll(async () => {
    await trove?.dispose();
    await Promise.all([
      receiver?.close(),
      smtp?.close(),
      new Promise((resolve) => hook?.server.close(resolve)),
    ]);
    await database?.drop();
  });

  it('listens for /metrics on its own port besides the web port', async () => {
    const webPort = Number(new URL(trove.baseUrl).port);
    expect(await listeningPorts(trove.child.pid!)).toEqual(
      [webPort, metricsPort].sort((a, b) => a - b),
    );
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status).toBe(404);
  });

  it('traces an entity update: its server span by route template, and its SQL beneath it', async () => {
    const entity = await createEntity(app, owner, 'Lamp');
    await as(app, owner, 'put', `/api/v1/entities/${entity.id}`)
      .send({ name: 'Desk lamp' })
      .expect(200);
    const server = await serverSpan('PUT /api/v1/entities/{id}');
    expect(attribute(server, 'http.route')).toBe('/api/v1/entities/{id}');
    expect(attribute(server, 'http.request.method')).toBe('PUT');
    expect(attribute(server, 'http.response.status_code')).toBe(200);
    expect(attribute(server, 'trove.group.id')).toBe(owner.groupId);
    const sql = await eventually(() => {
      const found = sqlSpansOf(receiver, server.traceId);
      return found.some((span) => /UPDATE/i.test(String(attribute(span, 'db.query.text'))))
        ? found
        : undefined;
    });
    for (const span of sql) {
      // Named after the statement's command, as the conventions say.
      expect(span.name).toMatch(/^[A-Z]+$/);
      expect(span.name).toBe(String(attribute(span, 'db.operation.name')));
      // Each statement is beneath the request's span (directly or through the pool's connect).
      const parents = new Set(spansOf(server.traceId).map((one) => one.spanId));
      expect(parents.has(span.parentSpanId!)).toBe(true);
      // Statement text only: never the bound values.
      expect(attribute(span, 'db.query.parameter.0')).toBeUndefined();
      expect(JSON.stringify(span.attributes)).not.toContain('Desk lamp');
    }
  });

  it('names a method HTTP does not define _OTHER, keeping the one sent beside it', async () => {
    await supertest(trove.baseUrl).propfind('/api/v1/nowhere').expect(404);
    const span = await eventually(() =>
      receiver
        .spans()
        .find(
          (one) =>
            one.kind === SPAN_KIND_SERVER &&
            attribute(one, 'http.request.method_original') === 'PROPFIND',
        ),
    );
    expect([span.name, attribute(span, 'http.request.method')]).toEqual(['HTTP', '_OTHER']);
  });

  it('continues the trace of an incoming traceparent', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    await as(app, owner, 'get', '/api/v1/entities')
      .set('traceparent', `00-${traceId}-b7ad6b7169203331-01`)
      .expect(200);
    const server = await serverSpan('GET /api/v1/entities', traceId);
    expect(server.parentSpanId).toBe('b7ad6b7169203331');
    expect(attribute(server, 'http.response.status_code')).toBe(200);
  });

  it('puts a job attempt and its mail in the trace of the request that queued it', async () => {
    await app.http.post('/api/v1/users/forgot-password').send({ email: owner.email }).expect(204);
    const server = await serverSpan('POST /api/v1/users/forgot-password');
    const job = await eventually(() =>
      spansOf(server.traceId).find((span) => span.name.startsWith('job ')),
    );
    expect(job.links?.[0]?.traceId).toBe(server.traceId);
    expect(attribute(job, 'trove.job.attempt')).toBe(1);
    const mail = await eventually(() =>
      spansOf(server.traceId).find((span) => span.name === 'mail send'),
    );
    expect(mail.parentSpanId).toBe(job.spanId);
    // The job's own SQL is beneath it.
    await eventually(() =>
      spansOf(server.traceId).find(
        (span) => span.scope.includes('pg') && span.parentSpanId === job.spanId,
      ),
    );
  });

  it('sends traceparent with a notifier delivery, in the trace of the request', async () => {
    await as(app, owner, 'post', '/api/v1/notifiers/test')
      .send({ url: `generic+http://${hook.url}/hooks/secret-hook-path-91c2` })
      .expect(200);
    const [delivered] = hook.received;
    const traceparent = String(delivered.headers.traceparent);
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    const traceId = traceparent.split('-')[1];
    await serverSpan('POST /api/v1/notifiers/test', traceId);
    const client = await eventually(() =>
      spansOf(traceId).find((span) => span.kind === SPAN_KIND_CLIENT),
    );
    expect(attribute(client, 'url.full')).toBe(`http://${hook.url}`);
    expect(spansOf(traceId).some((span) => span.name === 'notifier delivery generic+http')).toBe(
      true,
    );
  });

  it('traces a change-feed upgrade', async () => {
    const socket = new WebSocket(`${trove.baseUrl.replace('http', 'ws')}/api/v1/ws/events`, {
      headers: { Authorization: owner.authorization },
    });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const upgrade = await eventually(() =>
      receiver.spans().find((span) => span.name === 'WS upgrade /api/v1/ws/events'),
    );
    expect(attribute(upgrade, 'http.route')).toBe('/api/v1/ws/events');
    const frame = new Promise<string>((resolve) =>
      socket.on('message', (data: Buffer) => {
        if (data.toString().includes('entity.mutation')) resolve(data.toString());
      }),
    );
    await createEntity(app, owner, 'Watched');
    expect(JSON.parse(await frame)).toEqual({ event: 'entity.mutation' });
    const families = await eventually(async () => {
      const scraped = await scrape();
      return Number(series(scraped, 'trove_ws_connections')[0]?.value) === 1 &&
        Number(series(scraped, 'trove_ws_events_sent_total')[0]?.value) > 0
        ? scraped
        : undefined;
    });
    expect(series(families, 'trove_ws_connections')).toHaveLength(1);
    socket.close();
  });

  it('writes the trace and span ids into the log lines of a traced request, and exports them', async () => {
    const entity = await createEntity(app, owner, 'Shelf');
    const server = await serverSpan('POST /api/v1/entities', undefined);
    const created = await eventually(() =>
      receiver
        .spans()
        .find(
          (span) =>
            span.name === 'POST /api/v1/entities' &&
            trove.logs.some(
              (line) =>
                line.trace_id === span.traceId &&
                line.msg === 'request completed' &&
                (line.req as { url?: string } | undefined)?.url === '/api/v1/entities',
            ),
        ),
    );
    expect(server.name).toBe(created.name);
    const line = trove.logs.find((one) => one.trace_id === created.traceId)!;
    expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(entity.id).toEqual(expect.any(String));
    const record = await eventually(() =>
      receiver.logRecords().find((one) => one.traceId === created.traceId),
    );
    expect(record.spanId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('answers /metrics with the series of requests, pool, jobs, deliveries, sign-ins, replays and the runtime, and they move', async () => {
    const before = await scrape();
    const route = { http_route: '/api/v1/entities/{id}', http_request_method: 'GET' };
    const entity = await createEntity(app, owner, 'Chair');
    for (let i = 0; i < 3; i += 1) {
      await as(app, owner, 'get', `/api/v1/entities/${entity.id}`).expect(200);
    }
    // Two failures throttle the third attempt (TROVE_AUTH_RATE_LIMIT_MAX_ATTEMPTS=2).
    for (let i = 0; i < 3; i += 1) {
      await app.http
        .post('/api/v1/users/login')
        .send({ username: owner.email, password: 'wrong password' });
    }
    await app.http
      .post('/api/v1/users/login')
      .send({ username: 'nobody@example.com', password: 'x' });
    for (let i = 0; i < 2; i += 1) {
      await as(app, owner, 'post', '/api/v1/users/self/api-keys')
        .set('Idempotency-Key', 'metrics-replay-1')
        .send({ name: 'replayed key' })
        .expect(201);
    }
    const after = await eventually(async () => {
      const scraped = await scrape();
      return labelled(scraped, 'http_server_request_duration_seconds', {
        ...route,
        http_response_status_code: '200',
      })
        ? scraped
        : undefined;
    });
    const count = (families: PromMetrics): number =>
      Number(
        labelled(families, 'http_server_request_duration_seconds', {
          ...route,
          http_response_status_code: '200',
        })?.count ?? 0,
      );
    expect(count(after) - count(before)).toBe(3);
    expect(
      series(after, 'http_server_request_duration_seconds').find(
        (one) => one.labels?.http_route === '/api/v1/entities/{id}',
      )?.buckets,
    ).toBeDefined();
    expect(
      labelled(after, 'http_server_active_requests', {
        http_request_method: 'GET',
        url_scheme: 'http',
      }),
    ).toBeDefined();
    for (const state of ['in_use', 'idle', 'waiting']) {
      expect(labelled(after, 'trove_db_pool_connections', { state })).toBeDefined();
    }
    expect(Number(series(after, 'trove_db_pool_wait_duration_seconds')[0]?.count)).toBeGreaterThan(
      0,
    );
    expect(series(after, 'db_client_operation_duration_seconds').length).toBeGreaterThan(0);
    expect(
      labelled(after, 'trove_jobs_queued', {
        trove_job_name: 'users.password-reset-mail',
        trove_job_state: 'created',
      }),
    ).toBeDefined();
    // Every job's counters are there from the start, at 0 until it runs.
    const completed = series(after, 'trove_jobs_completed_total');
    expect(completed.map((one) => one.labels?.trove_job_name)).toContain('reminders.daily');
    expect(completed.reduce((sum, one) => sum + Number(one.value), 0)).toBeGreaterThan(0);
    expect(
      labelled(after, 'trove_notifier_deliveries_total', { scheme: 'ntfy', outcome: 'failure' })
        ?.value,
    ).toBe(0);
    expect(
      labelled(after, 'trove_notifier_deliveries_total', {
        scheme: 'generic+http',
        outcome: 'success',
      })?.value,
    ).toBe(1);
    expect(
      Number(labelled(after, 'trove_auth_sign_ins_total', { outcome: 'failure' })?.value),
    ).toBeGreaterThanOrEqual(2);
    expect(Number(series(after, 'trove_auth_throttled_total')[0]?.value)).toBeGreaterThanOrEqual(1);
    expect(Number(series(after, 'trove_idempotency_replays_total')[0]?.value)).toBe(1);
    expect(labelled(after, 'process_cpu_time_seconds_total', { cpu_mode: 'user' })).toBeDefined();
    expect(Number(series(after, 'process_memory_usage_bytes')[0]?.value)).toBeGreaterThan(0);
    const runtime = await eventually(async () => {
      const scraped = await scrape();
      return series(scraped, 'nodejs_eventloop_delay_p99_seconds').length > 0 ? scraped : undefined;
    });
    expect(Number(series(runtime, 'nodejs_eventloop_delay_p99_seconds')[0].value)).toBeLessThan(1);
    expect(series(after, 'v8js_gc_duration_seconds').length).toBeGreaterThan(0);
    // Pushed over OTLP too, with the configured headers.
    const pushed = await eventually(() =>
      receiver.requests.find(
        (request) =>
          request.path === '/v1/metrics' && request.body.includes('http.server.request.duration'),
      ),
    );
    expect(pushed.headers['x-collector-key']).toBe(COLLECTOR_KEY);
    expect(pushed.encoding).toBe('json');
  });

  it('sends no secret: passwords, API keys, notifier URLs, reset tokens, exporter headers', async () => {
    const key = await as(app, owner, 'post', '/api/v1/users/self/api-keys')
      .send({ name: 'secret key' })
      .expect(201);
    const apiKey = (key.body as { token: string }).token;
    expect(apiKey.length).toBeGreaterThan(10);
    await app.http
      .get('/api/v1/entities')
      .set('Authorization', apiKey.startsWith('Bearer ') ? apiKey : `Bearer ${apiKey}`)
      .query({ access_token: apiKey })
      .expect(200);
    const notifierUrl = `generic+http://${hook.url}/hooks/notifier-secret-7d3a?token=notifier-token-5e2b`;
    await as(app, owner, 'post', '/api/v1/notifiers')
      .send({ name: 'Hook', url: notifierUrl })
      .expect(201);
    const mailsBefore = smtp.to(owner.email).length;
    await app.http.post('/api/v1/users/forgot-password').send({ email: owner.email }).expect(204);
    const mail = await eventually(() => smtp.to(owner.email)[mailsBefore]);
    const resetToken = tokenOf(linkIn(mail));
    await app.http
      .post('/api/v1/users/reset-password')
      .send({ token: resetToken, password: 'new owner password 8R' })
      .expect(204);
    // Everything above has been exported (spans, logs and a metrics push) before the search.
    const resetSpan = await serverSpan('POST /api/v1/users/reset-password');
    await eventually(() => receiver.logRecords().find((one) => one.traceId === resetSpan.traceId));
    const pushes = receiver.requests.filter((request) => request.path === '/v1/metrics').length;
    await eventually(() =>
      receiver.requests.filter((request) => request.path === '/v1/metrics').length > pushes
        ? true
        : undefined,
    );
    const exported = receiver.requests.map((request) => request.body).join('\n');
    const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const logged = trove.logs.map((line) => JSON.stringify(line)).join('\n');
    const secrets = [
      owner.password,
      'new owner password 8R',
      apiKey,
      owner.token,
      'notifier-secret-7d3a',
      'notifier-token-5e2b',
      'secret-hook-path-91c2',
      resetToken,
      COLLECTOR_KEY,
    ];
    for (const secret of secrets) {
      expect(exported.includes(secret), `exported telemetry contains ${secret}`).toBe(false);
      expect(scraped.includes(secret), `/metrics contains ${secret}`).toBe(false);
    }
    expect(logged.includes(COLLECTOR_KEY)).toBe(false);
    expect(exported.includes(owner.email)).toBe(false);
  });
});
