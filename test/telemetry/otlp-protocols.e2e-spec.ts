import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createEntity, type EntityBody } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTroveProcess, type TroveProcess } from '../support/trove-process.js';
import {
  attribute,
  startOtlpGrpcReceiver,
  startOtlpReceiver,
  type KeyValue,
  type OtlpReceiver,
} from './otlp-receiver.js';
import {
  COLLECTOR_KEY,
  eventually,
  otlpEnv,
  serverSpan,
  spansOf,
  sqlSpansOf,
} from './telemetry-helpers.js';

const SPAN_STATUS_ERROR = 2;

// `http/json` is covered by telemetry.e2e-spec.ts; these are the other two OTLP protocols.
describe.each([
  { protocol: 'http/protobuf', encoding: 'protobuf', startReceiver: startOtlpReceiver },
  { protocol: 'grpc', encoding: 'grpc', startReceiver: startOtlpGrpcReceiver },
] as const)('telemetry exported over OTLP $protocol', ({ protocol, encoding, startReceiver }) => {
  let receiver: OtlpReceiver;
  let database: TestDatabase;
  let trove: TroveProcess;
  let owner: Session;
  let entity: EntityBody;

  beforeAll(async () => {
    [receiver, database] = await Promise.all([startReceiver(), createTestDatabase()]);
    trove = await startTroveProcess({
      env: { DATABASE_URL: database.url, ...otlpEnv(receiver, protocol) },
    });
    const app = { http: supertest(trove.baseUrl) };
    owner = await signUp(app, { name: 'Ada', password: 'owner password 7Q' });
    entity = await createEntity(app, owner, 'Lamp');
    for (let i = 0; i < 2; i += 1) {
      await as(app, owner, 'get', `/api/v1/entities/${entity.id}`).expect(200);
    }
  }, 120_000);

  afterAll(async () => {
    await trove?.dispose();
    await receiver?.close();
    await database?.drop();
  });

  it('exports the server span by route template with its status, and its SQL in the same trace', async () => {
    const server = await serverSpan(receiver, 'GET /api/v1/entities/{id}');
    expect(server.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(server.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(attribute(server, 'http.route')).toBe('/api/v1/entities/{id}');
    expect(attribute(server, 'http.request.method')).toBe('GET');
    expect(attribute(server, 'http.response.status_code')).toBe(200);
    expect(attribute(server, 'trove.group.id')).toBe(owner.groupId);
    expect(server.status?.code).not.toBe(SPAN_STATUS_ERROR);
    const sql = await eventually(() => {
      const found = sqlSpansOf(receiver, server.traceId);
      return found.some((span) => /SELECT/i.test(String(attribute(span, 'db.query.text'))))
        ? found
        : undefined;
    });
    const inTrace = new Set(spansOf(receiver, server.traceId).map((span) => span.spanId));
    for (const span of sql) {
      expect(inTrace.has(span.parentSpanId!)).toBe(true);
      expect(attribute(span, 'db.query.parameter.0')).toBeUndefined();
    }
  });

  it('exports the HTTP server duration of each route', async () => {
    // Cumulative: both requests of the route, by route template, method and status code.
    const point = await eventually(() =>
      receiver
        .metrics()
        .filter((metric) => metric.name === 'http.server.request.duration')
        .flatMap((metric) => metric.dataPoints)
        .find(
          (one) =>
            attribute(one, 'http.route') === '/api/v1/entities/{id}' &&
            attribute(one, 'http.request.method') === 'GET' &&
            Number(attribute(one, 'http.response.status_code')) === 200 &&
            Number(one.count) === 2,
        ),
    );
    expect(Number(point.count)).toBe(2);
  });

  it('exports log records carrying the trace and span ids of their request', async () => {
    const server = await serverSpan(receiver, 'POST /api/v1/entities');
    const record = await eventually(() =>
      receiver
        .logRecords()
        .find(
          (one) => one.traceId === server.traceId && one.body?.stringValue === 'request completed',
        ),
    );
    expect(record.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(spansOf(receiver, server.traceId).map((span) => span.spanId)).toContain(record.spanId);
    // The request and answer stay structured (maps), not JSON text.
    const request = record.attributes.find((one) => one.key === 'req')?.value as {
      kvlistValue?: { values?: KeyValue[] };
    };
    expect(request.kvlistValue?.values?.find((one) => one.key === 'method')?.value).toEqual({
      stringValue: 'POST',
    });
  });

  it(`sends every signal as ${encoding}, with the configured headers, and each export decodes`, async () => {
    await eventually(() =>
      new Set(receiver.requests.map((request) => request.signal)).size === 3 ? true : undefined,
    );
    expect(receiver.rejected).toEqual([]);
    for (const request of receiver.requests) {
      expect(request.encoding).toBe(encoding);
      expect(request.headers['x-collector-key']).toBe(COLLECTOR_KEY);
    }
  });
});

describe('telemetry exported with a protocol per signal', () => {
  let http: OtlpReceiver;
  let grpc: OtlpReceiver;
  let database: TestDatabase;
  let trove: TroveProcess;

  beforeAll(async () => {
    [http, grpc, database] = await Promise.all([
      startOtlpReceiver(),
      startOtlpGrpcReceiver(),
      createTestDatabase(),
    ]);
    trove = await startTroveProcess({
      env: {
        DATABASE_URL: database.url,
        ...otlpEnv(http, 'http/protobuf'),
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: grpc.url,
        OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: 'http/json',
      },
    });
    await signUp({ http: supertest(trove.baseUrl) });
  }, 120_000);

  afterAll(async () => {
    await trove?.dispose();
    await Promise.all([http?.close(), grpc?.close()]);
    await database?.drop();
  });

  it('sends spans as http/protobuf, log records as http/json, and metrics over gRPC to their own endpoint', async () => {
    await serverSpan(http, 'POST /api/v1/users/register');
    await eventually(() => http.logRecords()[0]);
    await eventually(() =>
      grpc.metrics().find((metric) => metric.name === 'http.server.request.duration'),
    );
    const signals = (receiver: OtlpReceiver): string[] => [
      ...new Set(receiver.requests.map((request) => `${request.signal} ${request.encoding}`)),
    ];
    expect(signals(http).sort()).toEqual(['logs json', 'traces protobuf']);
    expect(signals(grpc)).toEqual(['metrics grpc']);
    expect([...http.rejected, ...grpc.rejected]).toEqual([]);
  });
});
