import type { IncomingMessage, ServerResponse } from 'node:http';

/** Attribute values Trove puts on spans and metrics. */
export type TelemetryAttributes = Record<string, string | number | boolean>;

/** A trace context as carried in a job's data (`traceparent`, `tracestate`). */
export type TraceCarrier = Record<string, string>;

/** Trove's own counters (see docs/observability.md). */
export type TelemetryCounter =
  | 'trove.auth.sign_ins'
  | 'trove.auth.throttled'
  | 'trove.idempotency.replays'
  | 'trove.notifier.deliveries'
  | 'trove.ws.events_sent'
  | 'trove.jobs.completed'
  | 'trove.jobs.failed'
  | 'trove.backups'
  | 'trove.backup.verifications';

/** Trove's own gauges, read when metrics are collected. */
export type TelemetryGauge =
  'trove.db.pool.connections' | 'trove.db.available' | 'trove.jobs.queued';

/** One value of a gauge with its attributes. */
export interface GaugeReading {
  value: number;
  attributes?: TelemetryAttributes;
}

/**
 * What the rest of Trove tells telemetry. Until the OpenTelemetry bootstrap
 * (`open-telemetry.ts`, loaded by `main.ts` only when telemetry is switched on) installs its
 * own, every method does nothing and costs a property read: no OpenTelemetry module is loaded.
 */
export interface Telemetry {
  /** Whether spans are made (TROVE_OTEL_ENABLED). */
  readonly tracing: boolean;
  /** Whether metrics are collected (for /metrics or OTLP). */
  readonly metering: boolean;
  /** Express middleware measuring each request (duration by route, in flight), when metrics are on. */
  readonly httpMiddleware:
    ((request: IncomingMessage, response: ServerResponse, next: () => void) => void) | undefined;
  /** Adds `value` to a counter. */
  count(counter: TelemetryCounter, attributes?: TelemetryAttributes, value?: number): void;
  /**
   * Exports a counter at 0 for each of these attribute sets (the job names, the notifier schemes),
   * so that its first event counts in rate() and increase().
   */
  declareCounter(counter: TelemetryCounter, attributeSets: TelemetryAttributes[]): void;
  /**
   * The application's routes, once they are registered: each route's server errors (500, 503) are
   * exported at 0 from then on, so that rate() counts a route's first error.
   */
  declareRoutes(routes: { route: string; method: string }[]): void;
  /** Adds `delta` to the number of open change-feed sockets. */
  changeFeedSockets(delta: number): void;
  /** Registers how a gauge is read at each collection. */
  observe(gauge: TelemetryGauge, read: () => Promise<GaugeReading[]> | GaugeReading[]): void;
  /** Records how long a request waited for a pooled database connection. */
  poolWait(milliseconds: number): void;
  /** The active trace context to put into a queued job's data; undefined when not tracing. */
  carrier(): TraceCarrier | undefined;
  /**
   * Runs `work` in a span named `name` (a child of `parent` when given, else of the active span),
   * ended when it settles, marked as an error when it throws.
   */
  inSpan<T>(
    name: string,
    attributes: TelemetryAttributes,
    work: () => Promise<T>,
    options?: { parent?: TraceCarrier; kind?: 'internal' | 'server' | 'consumer'; link?: boolean },
  ): Promise<T>;
  /** `trace_id` and `span_id` of the active span, for a log line; empty outside a span. */
  logFields(): Record<string, string>;
  /** Sends one written log line (JSON) as an OTLP log record, when log export is on. */
  readonly exportLog: ((line: string) => void) | undefined;
}

const off: Telemetry = {
  tracing: false,
  metering: false,
  httpMiddleware: undefined,
  count: () => undefined,
  declareCounter: () => undefined,
  declareRoutes: () => undefined,
  changeFeedSockets: () => undefined,
  observe: () => undefined,
  poolWait: () => undefined,
  carrier: () => undefined,
  inSpan: (_name, _attributes, work) => work(),
  logFields: () => ({}),
  exportLog: undefined,
};

let current: Telemetry = off;

/** Trove's telemetry: the OpenTelemetry one once installed, else one that does nothing. */
export const telemetry = (): Telemetry => current;

/** Installs the OpenTelemetry implementation; called once, before the application is loaded. */
export function installTelemetry(implementation: Telemetry): void {
  current = implementation;
}

/** The key of a job's data that carries the trace context of the request that queued it. */
export const JOB_TRACE_KEY = '_trace';
