import { createServer, type AddressInfo } from 'node:net';
import { attribute, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

/** A TCP port of 127.0.0.1 free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const SPAN_KIND_SERVER = 2;
export const SPAN_KIND_CLIENT = 3;

/** Sent with each export through OTEL_EXPORTER_OTLP_HEADERS; must never show up anywhere else. */
export const COLLECTOR_KEY = 'collector-key-4f1d9b';

/**
 * The variables that switch telemetry on and push all three signals to `receiver` with
 * `protocol`, quickly: spans and log records every 100 ms, metrics every 500 ms.
 */
export function otlpEnv(
  receiver: Pick<OtlpReceiver, 'url'>,
  protocol: 'http/json' | 'http/protobuf' | 'grpc',
): Record<string, string> {
  return {
    TROVE_OTEL_ENABLED: 'true',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${COLLECTOR_KEY}`,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_METRIC_EXPORT_INTERVAL: '500',
    OTEL_LOGS_EXPORTER: 'otlp',
  };
}

/** Polls `probe` until it returns something other than undefined (or the test times out). */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The spans of one trace received so far. */
export const spansOf = (receiver: OtlpReceiver, traceId: string): ReceivedSpan[] =>
  receiver.spans().filter((span) => span.traceId === traceId);

/** The server span named `name` (of trace `traceId` when given), once it has been received. */
export const serverSpan = (
  receiver: OtlpReceiver,
  name: string,
  traceId?: string,
): Promise<ReceivedSpan> =>
  eventually(() =>
    receiver
      .spans()
      .find(
        (span) =>
          span.name === name &&
          span.kind === SPAN_KIND_SERVER &&
          (traceId === undefined || span.traceId === traceId),
      ),
  );

/** The SQL statement spans of trace `traceId` received so far. */
export const sqlSpansOf = (receiver: OtlpReceiver, traceId: string): ReceivedSpan[] =>
  spansOf(receiver, traceId).filter(
    (span) => span.scope.includes('pg') && attribute(span, 'db.query.text') !== undefined,
  );
