import {
  type Metadata,
  Server as GrpcServer,
  ServerCredentials,
  status as GrpcStatus,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';

/** An OTLP/JSON attribute value. */
export type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
};

export interface KeyValue {
  key: string;
  value: AnyValue;
}

/** A span as OTLP/JSON encodes it (ids in hex). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: KeyValue[];
  links?: Array<{ traceId: string; spanId: string }>;
  status?: { code?: number };
  /** The instrumentation scope that made it. */
  scope: string;
}

export interface ReceivedLogRecord {
  traceId?: string;
  spanId?: string;
  body?: AnyValue;
  attributes: KeyValue[];
}

/** A data point of any kind of metric (a histogram's `count` as OTLP/JSON writes a 64-bit integer). */
export interface ReceivedDataPoint {
  attributes: KeyValue[];
  count?: string | number;
  asInt?: string | number;
  asDouble?: number;
}

/** One metric of one export. */
export interface ReceivedMetric {
  name: string;
  /** The instrumentation scope that made it. */
  scope: string;
  dataPoints: ReceivedDataPoint[];
}

export type OtlpSignal = 'traces' | 'metrics' | 'logs';

/** How an export came: OTLP/HTTP as JSON or protobuf, or OTLP/gRPC. */
export type OtlpEncoding = 'json' | 'protobuf' | 'grpc';

export interface ReceivedExport {
  signal: OtlpSignal;
  encoding: OtlpEncoding;
  /** The HTTP path (`/v1/traces`), or the gRPC method (`/opentelemetry.proto...TraceService/Export`). */
  path: string;
  /** The HTTP headers, or the gRPC metadata. */
  headers: IncomingHttpHeaders;
  /** The export as OTLP/JSON text: as received, or decoded from protobuf (ids in hex). */
  body: string;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  /** Every export received, in order. */
  readonly requests: ReceivedExport[];
  /** Exports that could not be decoded, with the reason. */
  readonly rejected: string[];
  spans(): ReceivedSpan[];
  metrics(): ReceivedMetric[];
  logRecords(): ReceivedLogRecord[];
  close(): Promise<void>;
}

/** The value of attribute `key`, as a string, number or boolean. */
export function attribute(
  item: { attributes: KeyValue[] },
  key: string,
): string | number | boolean | undefined {
  const found = item.attributes.find((entry) => entry.key === key)?.value;
  if (!found) return undefined;
  if (found.intValue !== undefined) return Number(found.intValue);
  return found.stringValue ?? found.doubleValue ?? found.boolValue;
}

interface TracesRequest {
  resourceSpans?: Array<{
    scopeSpans?: Array<{ scope?: { name?: string }; spans?: Omit<ReceivedSpan, 'scope'>[] }>;
  }>;
}

type MetricData = { dataPoints?: ReceivedDataPoint[] };

interface MetricsRequest {
  resourceMetrics?: Array<{
    scopeMetrics?: Array<{
      scope?: { name?: string };
      metrics?: Array<{
        name: string;
        sum?: MetricData;
        gauge?: MetricData;
        histogram?: MetricData;
        exponentialHistogram?: MetricData;
        summary?: MetricData;
      }>;
    }>;
  }>;
}

interface LogsRequest {
  resourceLogs?: Array<{ scopeLogs?: Array<{ logRecords?: ReceivedLogRecord[] }> }>;
}

const HTTP_PATHS: Record<string, OtlpSignal> = {
  '/v1/traces': 'traces',
  '/v1/metrics': 'metrics',
  '/v1/logs': 'logs',
};

const SERVICES: Record<OtlpSignal, string> = {
  traces: 'opentelemetry.proto.collector.trace.v1.TraceService',
  metrics: 'opentelemetry.proto.collector.metrics.v1.MetricsService',
  logs: 'opentelemetry.proto.collector.logs.v1.LogsService',
};

/** The OTLP schema (`otlp-proto/`, from opentelemetry-proto), loaded by protobufjs. */
const PROTO_ROOT = path.join(import.meta.dirname, 'otlp-proto');
let otlpRoot: protobuf.Root | undefined;

/** The request and response types of `<signal>Service/Export`. */
function exportTypes(signal: OtlpSignal): { request: protobuf.Type; response: protobuf.Type } {
  if (!otlpRoot) {
    const root = new protobuf.Root();
    root.resolvePath = (_origin, target) => path.resolve(PROTO_ROOT, target);
    root.loadSync(
      ['trace', 'metrics', 'logs'].map(
        (name) => `opentelemetry/proto/collector/${name}/v1/${name}_service.proto`,
      ),
    );
    root.resolveAll();
    otlpRoot = root;
  }
  const method = otlpRoot.lookupService(SERVICES[signal]).methods.Export;
  method.resolve();
  return { request: method.resolvedRequestType!, response: method.resolvedResponseType! };
}

/** Ids are hex in OTLP/JSON; any other bytes are base64. */
const HEX_IDS = new Set(['traceId', 'spanId', 'parentSpanId']);

function asOtlpJson(value: unknown, key = ''): unknown {
  if (value instanceof Uint8Array) {
    return Buffer.from(value).toString(HEX_IDS.has(key) ? 'hex' : 'base64');
  }
  if (Array.isArray(value)) return value.map((item) => asOtlpJson(item));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([name, inner]) => [name, asOtlpJson(inner, name)]),
    );
  }
  return value;
}

/** A protobuf `Export<Signal>ServiceRequest` as OTLP/JSON text. */
function decodeExport(signal: OtlpSignal, bytes: Uint8Array): string {
  const { request } = exportTypes(signal);
  const message = request.toObject(request.decode(bytes), { longs: String, enums: Number });
  return JSON.stringify(asOtlpJson(message));
}

/** An empty `Export<Signal>ServiceResponse`: everything accepted. */
function acceptedResponse(signal: OtlpSignal): Buffer {
  const { response } = exportTypes(signal);
  return Buffer.from(response.encode(response.create({})).finish());
}

function readers(
  requests: ReceivedExport[],
): Pick<OtlpReceiver, 'spans' | 'metrics' | 'logRecords'> {
  const bodiesOf = <T>(signal: OtlpSignal): T[] =>
    requests.filter((request) => request.signal === signal).map((r) => JSON.parse(r.body) as T);
  return {
    spans: () =>
      bodiesOf<TracesRequest>('traces').flatMap((body) =>
        (body.resourceSpans ?? []).flatMap((resource) =>
          (resource.scopeSpans ?? []).flatMap((scope) =>
            (scope.spans ?? []).map((span) => ({
              ...span,
              attributes: span.attributes ?? [],
              scope: scope.scope?.name ?? '',
            })),
          ),
        ),
      ),
    metrics: () =>
      bodiesOf<MetricsRequest>('metrics').flatMap((body) =>
        (body.resourceMetrics ?? []).flatMap((resource) =>
          (resource.scopeMetrics ?? []).flatMap((scope) =>
            (scope.metrics ?? []).map((metric) => {
              const data =
                metric.sum ??
                metric.gauge ??
                metric.histogram ??
                metric.exponentialHistogram ??
                metric.summary;
              return {
                name: metric.name,
                scope: scope.scope?.name ?? '',
                dataPoints: (data?.dataPoints ?? []).map((point) => ({
                  ...point,
                  attributes: point.attributes ?? [],
                })),
              };
            }),
          ),
        ),
      ),
    logRecords: () =>
      bodiesOf<LogsRequest>('logs').flatMap((body) =>
        (body.resourceLogs ?? []).flatMap((resource) =>
          (resource.scopeLogs ?? []).flatMap((scope) =>
            (scope.logRecords ?? []).map((record) => ({
              ...record,
              attributes: record.attributes ?? [],
            })),
          ),
        ),
      ),
  };
}

/**
 * A stand-in OpenTelemetry collector over HTTP: takes OTLP exports (`/v1/traces`, `/v1/metrics`,
 * `/v1/logs`) in the `http/json` encoding or, with Content-Type `application/x-protobuf`, the
 * `http/protobuf` one, gzipped or not, and keeps each one as OTLP/JSON.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedExport[] = [];
  const rejected: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '';
      const signal = HTTP_PATHS[url];
      const protobufBody = request.headers['content-type'] === 'application/x-protobuf';
      try {
        if (!signal) throw new Error(`no OTLP signal at ${url}`);
        const raw = Buffer.concat(chunks);
        const bytes = request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        requests.push({
          signal,
          encoding: protobufBody ? 'protobuf' : 'json',
          path: url,
          headers: request.headers,
          body: protobufBody ? decodeExport(signal, bytes) : bytes.toString('utf8'),
        });
      } catch (error) {
        rejected.push(`${url}: ${(error as Error).message}`);
        response.writeHead(400).end();
        return;
      }
      if (protobufBody) {
        response
          .writeHead(200, { 'Content-Type': 'application/x-protobuf' })
          .end(acceptedResponse(signal));
      } else {
        response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    rejected,
    ...readers(requests),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** gRPC metadata as HTTP-style headers (text values only). */
function headersOf(metadata: Metadata): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (const [key, value] of Object.entries(metadata.getMap())) {
    if (typeof value === 'string') headers[key] = value;
  }
  return headers;
}

/**
 * A stand-in OpenTelemetry collector over gRPC: serves `Export` of the OTLP collector services
 * (`opentelemetry.proto.collector.{trace,metrics,logs}.v1`), keeps each export as OTLP/JSON and
 * answers an empty response (everything accepted).
 */
export async function startOtlpGrpcReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedExport[] = [];
  const rejected: string[] = [];
  const server = new GrpcServer();
  for (const signal of Object.keys(SERVICES) as OtlpSignal[]) {
    const methodPath = `/${SERVICES[signal]}/Export`;
    const definition: ServiceDefinition = {
      Export: {
        path: methodPath,
        requestStream: false,
        responseStream: false,
        // The body is kept as bytes and decoded by the handler, which reports a failure.
        requestSerialize: (bytes: Buffer) => bytes,
        requestDeserialize: (bytes: Buffer) => bytes,
        responseSerialize: (bytes: Buffer) => bytes,
        responseDeserialize: (bytes: Buffer) => bytes,
      },
    };
    server.addService(definition, {
      Export: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
        try {
          requests.push({
            signal,
            encoding: 'grpc',
            path: methodPath,
            headers: headersOf(call.metadata),
            body: decodeExport(signal, call.request),
          });
        } catch (error) {
          rejected.push(`${methodPath}: ${(error as Error).message}`);
          callback({ code: GrpcStatus.INVALID_ARGUMENT, details: (error as Error).message });
          return;
        }
        callback(null, acceptedResponse(signal));
      },
    });
  }
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    rejected,
    ...readers(requests),
    close: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}
