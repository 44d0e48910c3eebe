/**
 * Every metric Trove exports, declared once: the instruments are made from this list, the
 * Prometheus names follow from it, and `docs/observability.md` is written from it. Names, units and
 * attributes follow OpenTelemetry's semantic conventions (`SEMANTIC_CONVENTIONS`) where they define
 * the metric; Trove's own are named `trove.*`.
 */

/** The version of OpenTelemetry's semantic conventions the names and attributes follow. */
export const SEMANTIC_CONVENTIONS = '1.36.0';

export type MetricKind = 'counter' | 'updowncounter' | 'gauge' | 'histogram';

export interface MetricDefinition {
  /** The OpenTelemetry name (OTLP). */
  name: string;
  kind: MetricKind;
  /** UCUM unit (`s`, `By`, `1`), an annotation in braces (`{request}`), or none. */
  unit: string;
  description: string;
  /** The attributes it carries (Prometheus labels, dots as underscores). */
  attributes: readonly string[];
  /** A histogram's bucket boundaries, chosen for its range. */
  buckets?: readonly number[];
  /** Where it comes from when not from Trove's own code. */
  source?: string;
}

/** HTTP server durations: the semantic conventions' advice. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Waits for a pooled connection: a tenth of a millisecond (the usual) up to the 10 s timeout. */
const POOL_WAIT_BUCKETS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/** The metrics Trove's own code records. */
export const TROVE_METRICS = {
  httpDuration: {
    name: 'http.server.request.duration',
    kind: 'histogram',
    unit: 's',
    description: 'Time to answer an HTTP request',
    attributes: ['http.request.method', 'http.route', 'http.response.status_code', 'url.scheme'],
    buckets: HTTP_BUCKETS,
  },
  httpErrors: {
    name: 'trove.http.server.errors',
    kind: 'counter',
    unit: '{request}',
    description:
      'Requests answered with a server error (5xx), by route and status; every route is there at 0 for 500 and 503 from the start, so that rate() counts its first error',
    attributes: ['http.request.method', 'http.route', 'http.response.status_code'],
  },
  httpActive: {
    name: 'http.server.active_requests',
    kind: 'updowncounter',
    unit: '{request}',
    description: 'HTTP requests being answered',
    attributes: ['http.request.method', 'url.scheme'],
  },
  poolConnections: {
    name: 'trove.db.pool.connections',
    kind: 'gauge',
    unit: '{connection}',
    description: 'Connections of the database pool, by state (in_use, idle, waiting)',
    attributes: ['pool', 'state'],
  },
  databaseAvailable: {
    name: 'trove.db.available',
    kind: 'gauge',
    unit: '',
    description:
      'Whether this instance reaches its database: 0 from the first request that found it unavailable (answered 503) until it answers again, else 1',
    attributes: [],
  },
  poolWait: {
    name: 'trove.db.pool.wait_duration',
    kind: 'histogram',
    unit: 's',
    description: 'Time a request waited for a pooled database connection',
    attributes: ['pool'],
    buckets: POOL_WAIT_BUCKETS,
  },
  jobsQueued: {
    name: 'trove.jobs.queued',
    kind: 'gauge',
    unit: '{job}',
    description:
      'Jobs in the queue (all instances), by job name and state (created, retry, active)',
    attributes: ['trove.job.name', 'trove.job.state'],
  },
  jobsCompleted: {
    name: 'trove.jobs.completed',
    kind: 'counter',
    unit: '{attempt}',
    description: 'Job attempts this instance ran that succeeded, by job name',
    attributes: ['trove.job.name'],
  },
  jobsFailed: {
    name: 'trove.jobs.failed',
    kind: 'counter',
    unit: '{attempt}',
    description: 'Job attempts this instance ran that failed, by job name',
    attributes: ['trove.job.name'],
  },
  backups: {
    name: 'trove.backups',
    kind: 'counter',
    unit: '{backup}',
    description:
      'Instance backups this instance ran (scheduled or by npm run backup), by outcome (success, failure)',
    attributes: ['outcome'],
  },
  backupVerifications: {
    name: 'trove.backup.verifications',
    kind: 'counter',
    unit: '{verification}',
    description:
      'Rehearsed restores of instance backups into a scratch database, by outcome (success, failure)',
    attributes: ['outcome'],
  },
  notifierDeliveries: {
    name: 'trove.notifier.deliveries',
    kind: 'counter',
    unit: '{delivery}',
    description: 'Notifier deliveries and test messages, by scheme and outcome (success, failure)',
    attributes: ['scheme', 'outcome'],
  },
  signIns: {
    name: 'trove.auth.sign_ins',
    kind: 'counter',
    unit: '{sign_in}',
    description: 'Password sign-ins, by outcome (success, failure, throttled)',
    attributes: ['outcome'],
  },
  throttled: {
    name: 'trove.auth.throttled',
    kind: 'counter',
    unit: '{attempt}',
    description: 'Sign-in attempts refused by the throttle',
    attributes: [],
  },
  idempotencyReplays: {
    name: 'trove.idempotency.replays',
    kind: 'counter',
    unit: '{request}',
    description: 'Requests answered with a kept Idempotency-Key answer',
    attributes: [],
  },
  socketFrames: {
    name: 'trove.ws.events_sent',
    kind: 'counter',
    unit: '{frame}',
    description: 'Change-feed frames sent (events and pings)',
    attributes: [],
  },
  sockets: {
    name: 'trove.ws.connections',
    kind: 'updowncounter',
    unit: '{connection}',
    description: 'Open change-feed WebSocket connections',
    attributes: [],
  },
  cpuTime: {
    name: 'process.cpu.time',
    kind: 'counter',
    unit: 's',
    description: 'CPU time of the process, by mode (user, system)',
    attributes: ['cpu.mode'],
  },
  memory: {
    name: 'process.memory.usage',
    kind: 'gauge',
    unit: 'By',
    description: 'Resident memory of the process',
    attributes: [],
  },
  buildInfo: {
    name: 'trove.build.info',
    kind: 'gauge',
    unit: '',
    description: 'Always 1: the version of Trove and of Node.js this process runs',
    attributes: ['version', 'nodejs.version'],
  },
} as const satisfies Record<string, MetricDefinition>;

/** The metrics instrumentation libraries record, as Trove exports them. */
export const LIBRARY_METRICS: readonly MetricDefinition[] = [
  {
    name: 'db.client.operation.duration',
    kind: 'histogram',
    unit: 's',
    description: 'Duration of each SQL statement',
    attributes: ['db.system.name', 'db.namespace', 'db.operation.name', 'server.address'],
    source: '@opentelemetry/instrumentation-pg',
  },
  {
    name: 'nodejs.eventloop.delay.*',
    kind: 'gauge',
    unit: 's',
    description: 'Event-loop delay: min, max, mean, stddev, p50, p90, p99',
    attributes: [],
    source: '@opentelemetry/instrumentation-runtime-node',
  },
  {
    name: 'nodejs.eventloop.utilization',
    kind: 'gauge',
    unit: '1',
    description: 'Share of time the event loop was busy',
    attributes: [],
    source: '@opentelemetry/instrumentation-runtime-node',
  },
  {
    name: 'nodejs.eventloop.time',
    kind: 'counter',
    unit: 's',
    description: 'Time the event loop spent, by state (active, idle)',
    attributes: ['nodejs.eventloop.state'],
    source: '@opentelemetry/instrumentation-runtime-node',
  },
  {
    name: 'v8js.gc.duration',
    kind: 'histogram',
    unit: 's',
    description: 'Garbage collections, by type',
    attributes: ['v8js.gc.type'],
    source: '@opentelemetry/instrumentation-runtime-node',
  },
  {
    name: 'v8js.memory.heap.*',
    kind: 'gauge',
    unit: 'By',
    description: 'Heap spaces: size, used, available, physical size',
    attributes: ['v8js.heap.space.name'],
    source: '@opentelemetry/instrumentation-runtime-node',
  },
];

/** The instruments of pg's instrumentation that Trove does not export (it has its own). */
export const DROPPED_METRICS = [
  // pg's pool metrics name the pool "unknown_host:unknown_port/unknown_database", and
  // `db_client_connection_count` breaks Prometheus's naming rules; `trove.db.pool.connections`
  // counts the same connections.
  'db.client.connection.count',
  'db.client.connection.pending_requests',
  'db.client.connection.max',
  'db.client.connection.idle.max',
  'db.client.connection.idle.min',
];

/** Attributes never exported, whatever records them: the embedded database's port changes at each start. */
export const DROPPED_ATTRIBUTES = ['server.port'];

/** UCUM units as Prometheus name suffixes (OpenTelemetry's Prometheus compatibility rules). */
const UNIT_SUFFIX: Record<string, string> = {
  s: 'seconds',
  ms: 'milliseconds',
  By: 'bytes',
  '1': 'ratio',
};

/**
 * A metric's name with its unit as the last part (`http.server.request.duration.seconds`), as
 * Prometheus shows it; none for an annotation in braces, and an `*.info` metric keeps its name.
 */
export function withUnitSuffix(name: string, unit: string): string {
  const suffix = name.endsWith('.info') ? undefined : UNIT_SUFFIX[unit];
  return !suffix || name.endsWith(`.${suffix}`) || name.endsWith(`_${suffix}`)
    ? name
    : `${name}.${suffix}`;
}

/**
 * The name Prometheus shows for a metric: its unit as a suffix (`withUnitSuffix`), dots as
 * underscores, and `_total` after a counter's name.
 */
export function prometheusName(name: string, kind: MetricKind, unit: string): string {
  const base = withUnitSuffix(name, unit).replace(/[^a-zA-Z0-9_:*]/g, '_');
  return kind === 'counter' && !base.endsWith('_total') ? `${base}_total` : base;
}
