import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  /** Every export received: its path, headers and raw body. */
  readonly requests: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>;
  spans(): ReceivedSpan[];
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

interface LogsRequest {
  resourceLogs?: Array<{ scopeLogs?: Array<{ logRecords?: ReceivedLogRecord[] }> }>;
}

/**
 * A stand-in OpenTelemetry collector: an HTTP server taking OTLP exports in the `http/json`
 * encoding (`/v1/traces`, `/v1/metrics`, `/v1/logs`), keeping each one as it came.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: OtlpReceiver['requests'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const bodiesOf = <T>(path: string): T[] =>
    requests.filter((request) => request.path === path).map((r) => JSON.parse(r.body) as T);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () =>
      bodiesOf<TracesRequest>('/v1/traces').flatMap((body) =>
        (body.resourceSpans ?? []).flatMap((resource) =>
          (resource.scopeSpans ?? []).flatMap((scope) =>
            (scope.spans ?? []).map((span) => ({ ...span, scope: scope.scope?.name ?? '' })),
          ),
        ),
      ),
    logRecords: () =>
      bodiesOf<LogsRequest>('/v1/logs').flatMap((body) =>
        (body.resourceLogs ?? []).flatMap((resource) =>
          (resource.scopeLogs ?? []).flatMap((scope) => scope.logRecords ?? []),
        ),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
