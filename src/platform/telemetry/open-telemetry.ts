import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestOptions } from 'node:http';
import {
  context,
  createNoopMeter,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Link,
  type Meter,
  type Span,
} from '@opentelemetry/api';
import {
  logs,
  SeverityNumber,
  type AnyValue,
  type AnyValueMap,
  type Logger as OtelLogger,
} from '@opentelemetry/api-logs';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { registerInstrumentations, type Instrumentation } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { RuntimeNodeInstrumentation } from '@opentelemetry/instrumentation-runtime-node';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import {
  AggregationType,
  createDenyListAttributesProcessor,
  MeterProvider,
  PeriodicExportingMetricReader,
  type IMetricReader,
  type PushMetricExporter,
  type ViewOptions,
} from '@opentelemetry/sdk-metrics';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { LogRecordExporter } from '@opentelemetry/sdk-logs';
import type { OtlpProtocol, TroveConfig } from '../config/configuration.js';
import { requestMethod, routeTemplate, UNMATCHED_ROUTE, urlScheme } from './http-route.js';
import {
  DROPPED_ATTRIBUTES,
  DROPPED_METRICS,
  type MetricDefinition,
  TROVE_METRICS,
} from './metrics.js';
import { servePrometheus } from './prometheus-listener.js';
import {
  installTelemetry,
  type GaugeReading,
  type Telemetry,
  type TelemetryAttributes,
  type TelemetryCounter,
  type TelemetryGauge,
  type TraceCarrier,
} from './telemetry.js';

type TelemetryConfig = TroveConfig['telemetry'];

/** The running OpenTelemetry SDK: flushes and stops everything on shutdown. */
export interface RunningTelemetry {
  shutdown(): Promise<void>;
}

const SCOPE = 'trove';

function samplerOf(config: TelemetryConfig): Sampler {
  const ratio = new TraceIdRatioBasedSampler(config.samplerRatio);
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio;
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    default:
      return new ParentBasedSampler({ root: ratio });
  }
}

/** The OTLP span exporter of `protocol`. */
async function spanExporter(protocol: OtlpProtocol): Promise<SpanExporter> {
  const { OTLPTraceExporter } =
    protocol === 'grpc'
      ? await import('@opentelemetry/exporter-trace-otlp-grpc')
      : protocol === 'http/json'
        ? await import('@opentelemetry/exporter-trace-otlp-http')
        : await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}

/** The OTLP metric exporter of `protocol`. */
async function metricExporter(protocol: OtlpProtocol): Promise<PushMetricExporter> {
  const { OTLPMetricExporter } =
    protocol === 'grpc'
      ? await import('@opentelemetry/exporter-metrics-otlp-grpc')
      : protocol === 'http/json'
        ? await import('@opentelemetry/exporter-metrics-otlp-http')
        : await import('@opentelemetry/exporter-metrics-otlp-proto');
  return new OTLPMetricExporter();
}

/** The OTLP log record exporter of `protocol`. */
async function logRecordExporter(protocol: OtlpProtocol): Promise<LogRecordExporter> {
  const { OTLPLogExporter } =
    protocol === 'grpc'
      ? await import('@opentelemetry/exporter-logs-otlp-grpc')
      : protocol === 'http/json'
        ? await import('@opentelemetry/exporter-logs-otlp-http')
        : await import('@opentelemetry/exporter-logs-otlp-proto');
  return new OTLPLogExporter();
}

/**
 * The OTLP exporter of each signal, in the protocol configured for it (a per-signal
 * OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL, or else OTEL_EXPORTER_OTLP_PROTOCOL). They read
 * OTEL_EXPORTER_OTLP_ENDPOINT (and the per-signal endpoints), OTEL_EXPORTER_OTLP_HEADERS, timeouts
 * and compression themselves.
 */
async function otlpExporters(protocols: TelemetryConfig['otlpProtocols']): Promise<{
  spans: SpanExporter;
  metrics: PushMetricExporter;
  logs: LogRecordExporter;
}> {
  const [spans, metrics, logs] = await Promise.all([
    spanExporter(protocols.traces),
    metricExporter(protocols.metrics),
    logRecordExporter(protocols.logs),
  ]);
  return { spans, metrics, logs };
}

/**
 * The resource every signal carries: the service's name and version, an instance id (random per
 * process unless OTEL_RESOURCE_ATTRIBUTES names one), and OTEL_RESOURCE_ATTRIBUTES, whose
 * `service.name` gives way to OTEL_SERVICE_NAME when that is set.
 */
function resourceOf(config: TelemetryConfig) {
  const given = config.resourceAttributes;
  return resourceFromAttributes({
    'service.instance.id': randomUUID(),
    ...given,
    'service.name':
      config.serviceNameSet || given['service.name'] === undefined
        ? config.serviceName
        : given['service.name'],
    'service.version': given['service.version'] ?? config.serviceVersion,
  });
}

/** An instrument's options from its definition. */
function options(definition: MetricDefinition) {
  return {
    description: definition.description,
    unit: definition.unit,
    ...(definition.buckets
      ? { advice: { explicitBucketBoundaries: [...definition.buckets] } }
      : {}),
  };
}

/** What instrumentation libraries record that Trove leaves out (see `DROPPED_METRICS`). */
const METRIC_VIEWS: ViewOptions[] = [
  ...DROPPED_METRICS.map((instrumentName) => ({
    instrumentName,
    meterName: '@opentelemetry/instrumentation-pg',
    aggregation: { type: AggregationType.DROP },
  })),
  {
    instrumentName: 'db.client.operation.duration',
    attributesProcessors: [createDenyListAttributesProcessor(DROPPED_ATTRIBUTES)],
  },
];

/** The query of a URL never leaves: it may carry `access_token` and other credentials. */
const REDACTED = '[redacted]';

/** Outgoing requests name only their origin: a notifier's path and query are its secrets. */
function outgoingAttributes(options: RequestOptions): Attributes {
  const protocol = options.protocol ?? 'http:';
  const host = options.hostname ?? options.host ?? 'localhost';
  const port = options.port ? `:${String(options.port)}` : '';
  return { 'url.full': `${protocol}//${host}${port}`, 'url.path': REDACTED };
}

const isServerRequest = (request: unknown): request is IncomingMessage & { route?: unknown } =>
  typeof (request as IncomingMessage | undefined)?.headers === 'object' &&
  typeof (request as IncomingMessage).httpVersion === 'string';

/** Pino's numeric levels as OpenTelemetry severities. */
const SEVERITY: Record<number, [SeverityNumber, string]> = {
  10: [SeverityNumber.TRACE, 'TRACE'],
  20: [SeverityNumber.DEBUG, 'DEBUG'],
  30: [SeverityNumber.INFO, 'INFO'],
  40: [SeverityNumber.WARN, 'WARN'],
  50: [SeverityNumber.ERROR, 'ERROR'],
  60: [SeverityNumber.FATAL, 'FATAL'],
};

/** A written log line as a log record: its message as body, its other fields as attributes. */
function emitLogLine(logger: OtelLogger, line: string): void {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return;
  }
  const { msg, level, time, trace_id: _traceId, span_id: _spanId, ...rest } = fields;
  const [severityNumber, severityText] = SEVERITY[Number(level)] ?? SEVERITY[30];
  // Nested fields (`req`, `res`, `err`) stay structured: OTLP log attributes may be maps.
  const attributes: AnyValueMap = {};
  for (const [key, value] of Object.entries(rest)) {
    if (value === null || value === undefined) continue;
    attributes[key] = value as AnyValue;
  }
  logger.emit({
    body: typeof msg === 'string' ? msg : '',
    severityNumber,
    severityText,
    timestamp: typeof time === 'string' ? new Date(time) : new Date(),
    attributes,
    context: context.active(),
  });
}

/**
 * Starts OpenTelemetry before the application's modules are loaded (so `http`, `pg` and
 * `undici` are patched as they are first required) and installs Trove's telemetry:
 * traces when `enabled`, metrics for `/metrics` and OTLP, log records over OTLP when asked.
 */
export async function startTelemetry(config: TelemetryConfig): Promise<RunningTelemetry> {
  const resource = resourceOf(config);
  const pushing = config.enabled && config.otlpEndpoint !== '';
  const exporters = pushing ? await otlpExporters(config.otlpProtocols) : undefined;
  const stops: Array<() => Promise<void>> = [];

  let tracerProvider: NodeTracerProvider | undefined;
  if (config.enabled) {
    tracerProvider = new NodeTracerProvider({
      resource,
      sampler: samplerOf(config),
      spanProcessors: exporters
        ? [
            new BatchSpanProcessor(exporters.spans, {
              scheduledDelayMillis: config.spanExportDelayMs,
            }),
          ]
        : [],
    });
    // AsyncLocalStorage context and W3C `traceparent` (and baggage) propagation.
    tracerProvider.register();
    stops.push(() => tracerProvider!.shutdown());
  }

  const readers: IMetricReader[] = [];
  if (config.metrics) {
    const prometheus = new PrometheusExporter({ preventServerStart: true, withoutScopeInfo: true });
    readers.push(prometheus);
    const listener = await servePrometheus(prometheus, config.metrics);
    stops.push(() => new Promise<void>((resolve) => listener.close(() => resolve())));
  }
  if (exporters) {
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: exporters.metrics,
        exportIntervalMillis: config.metricExportIntervalMs,
        exportTimeoutMillis: Math.min(30_000, config.metricExportIntervalMs),
      }),
    );
  }
  const metering = readers.length > 0;
  let meter: Meter = createNoopMeter();
  if (metering) {
    const meterProvider = new MeterProvider({ resource, readers, views: METRIC_VIEWS });
    metrics.setGlobalMeterProvider(meterProvider);
    meter = meterProvider.getMeter(SCOPE);
    stops.push(() => meterProvider.shutdown());
  }

  let logRecords: OtelLogger | undefined;
  if (exporters && config.exportLogs) {
    const loggerProvider = new LoggerProvider({
      resource,
      processors: [
        new BatchLogRecordProcessor({
          exporter: exporters.logs,
          scheduledDelayMillis: config.spanExportDelayMs,
        }),
      ],
    });
    logs.setGlobalLoggerProvider(loggerProvider);
    logRecords = loggerProvider.getLogger(SCOPE);
    stops.push(() => loggerProvider.shutdown());
  }

  const metricsPort = config.metrics?.port;
  const http = new HttpInstrumentation({
    // Scrapes of the metrics listener are not traced.
    ignoreIncomingRequestHook: (request) =>
      metricsPort !== undefined && request.socket.localPort === metricsPort,
    // No header or body is ever recorded; a query string is replaced as a whole.
    startIncomingSpanHook: (request) =>
      request.url?.includes('?') ? { 'url.query': REDACTED } : {},
    startOutgoingSpanHook: outgoingAttributes,
    applyCustomAttributesOnSpan: (span, request) => {
      if (!isServerRequest(request)) return;
      const route = routeTemplate(request);
      const method = requestMethod(request);
      if (method === '_OTHER') {
        // A method HTTP does not define is named `_OTHER`, the one sent kept beside it.
        span.setAttribute('http.request.method', method);
        span.setAttribute('http.request.method_original', request.method ?? '');
      }
      span.updateName(
        route
          ? `${method === '_OTHER' ? 'HTTP' : method} ${route}`
          : method === '_OTHER'
            ? 'HTTP'
            : method,
      );
      if (route) span.setAttribute('http.route', route);
      // The group the request acted in (never the user's e-mail or credential).
      const { user } = request as { user?: { tenant?: { groupId?: unknown } | null } };
      const groupId = user?.tenant?.groupId;
      if (typeof groupId === 'string') span.setAttribute('trove.group.id', groupId);
    },
  });
  const instrumentations: Instrumentation[] = [
    http,
    new PgInstrumentation({
      // Statement text only: bound values stay out, and only SQL of a request or job is traced.
      enhancedDatabaseReporting: false,
      requireParentSpan: true,
      // The wait for a pooled connection is the histogram trove.db.pool.wait_duration.
      ignoreConnectSpans: true,
      // A span is named after the statement's command (`SELECT`), as the conventions say, never
      // after a prepared statement's name.
      requestHook: (span, { query }) => {
        const command = /^\s*([a-z]+)/i.exec(query.text)?.[1]?.toUpperCase();
        if (!command) return;
        span.updateName(command);
        span.setAttribute('db.operation.name', command);
      },
    }),
    // fetch (the OpenID provider): as for http, the origin only.
    new UndiciInstrumentation({
      startSpanHook: (request) => ({
        'url.full': request.origin,
        'url.path': REDACTED,
        'url.query': request.path.includes('?') ? REDACTED : '',
      }),
    }),
  ];
  if (metering) {
    instrumentations.push(new RuntimeNodeInstrumentation());
  }
  const unregister = registerInstrumentations({ instrumentations });
  // Trove measures requests by route template itself (see httpMiddleware).
  http.setMeterProvider({ getMeter: () => createNoopMeter() });
  stops.unshift(() => Promise.resolve(unregister()));

  const tracer = trace.getTracer(SCOPE);
  const counters = new Map<TelemetryCounter, ReturnType<Meter['createCounter']>>();
  const counterMetrics: Record<TelemetryCounter, MetricDefinition> = {
    'trove.auth.sign_ins': TROVE_METRICS.signIns,
    'trove.auth.throttled': TROVE_METRICS.throttled,
    'trove.idempotency.replays': TROVE_METRICS.idempotencyReplays,
    'trove.notifier.deliveries': TROVE_METRICS.notifierDeliveries,
    'trove.ws.events_sent': TROVE_METRICS.socketFrames,
    'trove.jobs.completed': TROVE_METRICS.jobsCompleted,
    'trove.jobs.failed': TROVE_METRICS.jobsFailed,
    'trove.backups': TROVE_METRICS.backups,
    'trove.backup.verifications': TROVE_METRICS.backupVerifications,
  };
  for (const [counter, definition] of Object.entries(counterMetrics)) {
    counters.set(
      counter as TelemetryCounter,
      meter.createCounter(definition.name, options(definition)),
    );
  }
  // Counters whose attributes are known from the start are exported at 0 from the start, so that
  // rate() and increase() count their first event.
  for (const outcome of ['success', 'failure', 'throttled']) {
    counters.get('trove.auth.sign_ins')?.add(0, { outcome });
  }
  for (const counter of [
    'trove.auth.throttled',
    'trove.idempotency.replays',
    'trove.ws.events_sent',
  ] as const) {
    counters.get(counter)?.add(0);
  }
  const sockets = meter.createUpDownCounter(
    TROVE_METRICS.sockets.name,
    options(TROVE_METRICS.sockets),
  );
  sockets.add(0);
  const poolWait = meter.createHistogram(
    TROVE_METRICS.poolWait.name,
    options(TROVE_METRICS.poolWait),
  );
  const gauges: Record<TelemetryGauge, MetricDefinition> = {
    'trove.db.pool.connections': TROVE_METRICS.poolConnections,
    'trove.db.available': TROVE_METRICS.databaseAvailable,
    'trove.jobs.queued': TROVE_METRICS.jobsQueued,
  };
  const requestDuration = meter.createHistogram(
    TROVE_METRICS.httpDuration.name,
    options(TROVE_METRICS.httpDuration),
  );
  const serverErrors = meter.createCounter(
    TROVE_METRICS.httpErrors.name,
    options(TROVE_METRICS.httpErrors),
  );
  const inFlight = meter.createUpDownCounter(
    TROVE_METRICS.httpActive.name,
    options(TROVE_METRICS.httpActive),
  );
  const cpu = meter.createObservableCounter(
    TROVE_METRICS.cpuTime.name,
    options(TROVE_METRICS.cpuTime),
  );
  cpu.addCallback((result) => {
    const usage = process.cpuUsage();
    result.observe(usage.user / 1e6, { 'cpu.mode': 'user' });
    result.observe(usage.system / 1e6, { 'cpu.mode': 'system' });
  });
  const memory = meter.createObservableGauge(
    TROVE_METRICS.memory.name,
    options(TROVE_METRICS.memory),
  );
  memory.addCallback((result) => result.observe(process.memoryUsage.rss()));
  const build = meter.createObservableGauge(
    TROVE_METRICS.buildInfo.name,
    options(TROVE_METRICS.buildInfo),
  );
  build.addCallback((result) =>
    result.observe(1, { version: config.serviceVersion, 'nodejs.version': process.versions.node }),
  );

  const running = (span: Span, work: () => Promise<unknown>): Promise<unknown> =>
    work().then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        throw error;
      },
    );

  const implementation: Telemetry = {
    tracing: config.enabled,
    metering,
    httpMiddleware: metering
      ? (request, response, next) => {
          const active = {
            'http.request.method': requestMethod(request),
            'url.scheme': urlScheme(request),
          };
          const startedAt = performance.now();
          inFlight.add(1, active);
          response.once('close', () => {
            inFlight.add(-1, active);
            const route = routeTemplate(request) ?? UNMATCHED_ROUTE;
            requestDuration.record((performance.now() - startedAt) / 1000, {
              ...active,
              'http.route': route,
              'http.response.status_code': response.statusCode,
            });
            if (response.statusCode >= 500) {
              serverErrors.add(1, {
                'http.request.method': active['http.request.method'],
                'http.route': route,
                'http.response.status_code': response.statusCode,
              });
            }
          });
          next();
        }
      : undefined,
    count: (counter, attributes, value = 1) => counters.get(counter)?.add(value, attributes),
    declareRoutes: (routes) => {
      for (const { route, method } of [...routes, { route: UNMATCHED_ROUTE, method: 'GET' }]) {
        for (const status of [500, 503]) {
          serverErrors.add(0, {
            'http.request.method': method,
            'http.route': route,
            'http.response.status_code': status,
          });
        }
      }
    },
    declareCounter: (counter, attributeSets) => {
      for (const attributes of attributeSets) counters.get(counter)?.add(0, attributes);
    },
    changeFeedSockets: (delta) => sockets.add(delta),
    observe: (gauge, read) => {
      const instrument = meter.createObservableGauge(gauge, options(gauges[gauge]));
      instrument.addCallback(async (result) => {
        const readings: GaugeReading[] = await Promise.resolve(read()).catch(() => []);
        for (const reading of readings) result.observe(reading.value, reading.attributes);
      });
    },
    // Labelled with the pool (the application's; pg-boss keeps its own, unmeasured).
    poolWait: (milliseconds) => poolWait.record(milliseconds / 1000, { pool: 'app' }),
    carrier: () => {
      if (!config.enabled) return undefined;
      const carrier: TraceCarrier = {};
      propagation.inject(context.active(), carrier);
      return carrier.traceparent ? carrier : undefined;
    },
    inSpan: <T>(
      name: string,
      attributes: TelemetryAttributes,
      work: () => Promise<T>,
      options: {
        parent?: TraceCarrier;
        kind?: 'internal' | 'server' | 'consumer';
        link?: boolean;
      } = {},
    ): Promise<T> => {
      if (!config.enabled) return work();
      const parent = options.parent
        ? propagation.extract(ROOT_CONTEXT, options.parent)
        : context.active();
      const parentSpan = options.parent ? trace.getSpanContext(parent) : undefined;
      const links: Link[] = options.link && parentSpan ? [{ context: parentSpan }] : [];
      const kind =
        options.kind === 'server'
          ? SpanKind.SERVER
          : options.kind === 'consumer'
            ? SpanKind.CONSUMER
            : SpanKind.INTERNAL;
      return tracer.startActiveSpan(
        name,
        { kind, attributes, links },
        parent,
        (span) => running(span, work) as Promise<T>,
      );
    },
    logFields: (): Record<string, string> => {
      const span = trace.getSpan(context.active())?.spanContext();
      if (!span || !trace.isSpanContextValid(span)) return {};
      return { trace_id: span.traceId, span_id: span.spanId };
    },
    exportLog: logRecords ? (line) => emitLogLine(logRecords, line) : undefined,
  };
  installTelemetry(implementation);

  return {
    shutdown: async () => {
      for (const stop of stops) await stop().catch(() => undefined);
    },
  };
}
