import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import PgBoss from 'pg-boss';
import { databaseOutage } from '../database/database-availability.js';
import { Database } from '../database/database.js';
import {
  JOB_TRACE_KEY,
  telemetry,
  type GaugeReading,
  type TraceCarrier,
} from '../telemetry/telemetry.js';

export const JOB_QUEUE_OPTIONS = Symbol('JOB_QUEUE_OPTIONS');

/** How this instance reaches the queue and whether it works on it. */
export interface JobQueueOptions {
  /** The database the queue lives in (the app's own). */
  url: string;
  /** Whether this instance runs jobs and schedules (false: it only queues them). */
  workersEnabled: boolean;
  /** Seconds between an idle worker's looks for new jobs. */
  pollIntervalSeconds: number;
  /** Connections of the queue's own pool (its workers and upkeep). */
  poolSize: number;
}

/** The schema the queue's tables live in. */
export const JOB_QUEUE_SCHEMA = 'pgboss';

/** Where a job stands when its handler runs. */
export interface JobAttempt {
  id: string;
  /** Retries before this attempt (0 on the first). */
  retryCount: number;
  retryLimit: number;
}

/** A kind of job: its queue's name, its retry rules, what runs it, and an optional schedule. */
export interface JobDefinition<T extends object> {
  name: string;
  /** Runs one job; a throw fails this attempt, which is retried after a growing delay. */
  handle(data: T, attempt: JobAttempt): Promise<void>;
  /** Retries after the first attempt (default 5). */
  retryLimit?: number;
  /** Seconds before the first retry, doubled for each later one (default 10). */
  retryDelaySeconds?: number;
  /** Seconds an attempt may run before it counts as failed (default 15 minutes). */
  expireInSeconds?: number;
  /** Jobs one instance runs at once (default 1). */
  concurrency?: number;
  /**
   * A cron expression (five fields) on which the queue gets a job with `data`, once across all
   * instances, in the IANA time zone `timeZone` (default UTC).
   */
  schedule?: { cron: string; timeZone?: string; data: T };
}

/** Options of one queued job. */
export interface SendOptions {
  /** At most one job with this key waits or runs in the queue at a time. */
  singletonKey?: string;
  /** Seconds to wait before the job may start. */
  startAfterSeconds?: number;
}

const DEFAULTS = { retryLimit: 5, retryDelaySeconds: 10, expireInSeconds: 15 * 60, concurrency: 1 };

/** SQLSTATE of a transaction PostgreSQL aborted to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';
/** Attempts at creating a queue that other instances create at the same time. */
const CREATE_QUEUE_ATTEMPTS = 5;

/**
 * Finished (completed or failed) jobs stay in `pgboss.job` for pg-boss's 12 hours, then in
 * `pgboss.archive` for this long, for inspection, and are then removed.
 */
const KEEP_FINISHED_DAYS = 7;

/**
 * Trove's durable job queue: pg-boss in the app's own PostgreSQL (schema `pgboss`), so jobs and
 * schedules outlive a restart, each job runs on one instance however many share the database,
 * failed attempts are retried with exponential backoff and the last error stays on the job.
 *
 * Modules register their kinds of job (`register`) while the application initialises; the queue
 * starts when the application has bootstrapped. A job is queued with `send`, which joins the
 * unit of work open in the context, so the job exists exactly when the change that asked for it
 * commits. With `TROVE_WORKERS_ENABLED=false` an instance queues jobs but runs none (and no
 * schedules): API and worker roles scale apart from one image.
 */
@Injectable()
export class JobQueue implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly definitions = new Map<string, JobDefinition<object>>();
  private readonly boss: PgBoss;
  private started = false;

  constructor(
    @Inject(JOB_QUEUE_OPTIONS) private readonly options: JobQueueOptions,
    private readonly database: Database,
  ) {
    this.boss = new PgBoss({
      connectionString: options.url,
      schema: JOB_QUEUE_SCHEMA,
      max: options.poolSize,
      application_name: 'trove-jobs',
      supervise: options.workersEnabled,
      schedule: options.workersEnabled,
      migrate: true,
      deleteAfterDays: KEEP_FINISHED_DAYS,
    });
    this.boss.on('error', (error) => this.reportError(error));
  }

  get workersEnabled(): boolean {
    return this.options.workersEnabled;
  }

  /** Declares a kind of job; call it before the application bootstraps (`onModuleInit`). */
  register<T extends object>(definition: JobDefinition<T>): void {
    if (this.started) throw new Error(`job ${definition.name} registered after the queue started`);
    if (this.definitions.has(definition.name)) {
      throw new Error(`job ${definition.name} is registered twice`);
    }
    this.definitions.set(definition.name, definition);
  }

  /**
   * Queues a job. In a unit of work the job is written by that transaction, so it is queued when
   * the transaction commits and never if it rolls back. Null when a job with the same
   * `singletonKey` is already waiting.
   */
  async send<T extends object>(
    name: string,
    data: T,
    options: SendOptions = {},
  ): Promise<string | null> {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`job ${name} is not registered`);
    // With tracing on, the job carries the trace of the request that queued it.
    const carrier = telemetry().carrier();
    const sent = carrier ? { ...data, [JOB_TRACE_KEY]: carrier } : data;
    return this.boss.send(name, sent, {
      ...this.retryRules(definition),
      singletonKey: options.singletonKey,
      startAfter: options.startAfterSeconds,
      db: {
        executeSql: async (text, values) => ({ rows: await this.database.query(text, values) }),
      },
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.boss.start();
    this.started = true;
    telemetry().observe('trove.jobs.queued', () => this.queuedJobs());
    const jobNames = [...this.definitions.keys()].map((name) => ({ 'trove.job.name': name }));
    telemetry().declareCounter('trove.jobs.completed', jobNames);
    telemetry().declareCounter('trove.jobs.failed', jobNames);
    for (const definition of this.definitions.values()) {
      await this.createQueue(definition);
      await this.boss.updateQueue(definition.name, {
        name: definition.name,
        ...this.retryRules(definition),
      });
    }
    if (!this.options.workersEnabled) return;
    for (const definition of this.definitions.values()) {
      const concurrency = definition.concurrency ?? DEFAULTS.concurrency;
      for (let worker = 0; worker < concurrency; worker += 1) {
        await this.boss.work<object>(
          definition.name,
          {
            batchSize: 1,
            includeMetadata: true,
            pollingIntervalSeconds: this.options.pollIntervalSeconds,
          },
          ([job]) => this.run(definition, job),
        );
      }
      if (definition.schedule) {
        await this.boss.schedule(
          definition.name,
          definition.schedule.cron,
          definition.schedule.data,
          {
            tz: definition.schedule.timeZone ?? 'UTC',
            ...this.retryRules(definition),
          },
        );
      } else {
        await this.boss.unschedule(definition.name);
      }
    }
  }

  /**
   * Stops taking jobs and waits a little for the ones running, which are retried if cut off.
   * Before the application's shutdown proper, so the database and storage the running jobs use
   * are still open while they finish: TypeORM's module closes its pool on
   * `onApplicationShutdown`, and Nest calls that hook of this (global) module after it.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: 5_000 });
  }

  /**
   * Creates a kind of job's queue unless it exists. pg-boss creates a queue as a table attached
   * to its job table, and instances starting together on a database that lacks the queue do so
   * at once: PostgreSQL may then abort one of them with a deadlock, which is tried again after
   * a short, random pause (by then the queue usually exists, and nothing is left to do).
   */
  private async createQueue(definition: JobDefinition<object>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.boss.createQueue(definition.name, {
          name: definition.name,
          ...this.retryRules(definition),
        });
        return;
      } catch (error) {
        const deadlock = (error as { code?: unknown }).code === DEADLOCK_DETECTED;
        if (!deadlock || attempt >= CREATE_QUEUE_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 200));
      }
    }
  }

  private async run(
    definition: JobDefinition<object>,
    job: PgBoss.JobWithMetadata<object>,
  ): Promise<void> {
    const { [JOB_TRACE_KEY]: carrier, ...data } = job.data as Record<string, unknown>;
    const attempt = { id: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit };
    try {
      // Each attempt is a span in the trace of the request that queued the job, linked to it.
      await telemetry().inSpan(
        `job ${definition.name}`,
        { 'trove.job.name': definition.name, 'trove.job.attempt': job.retryCount + 1 },
        () => definition.handle(carrier === undefined ? job.data : data, attempt),
        { parent: carrier as TraceCarrier | undefined, kind: 'consumer', link: true },
      );
      telemetry().count('trove.jobs.completed', { 'trove.job.name': definition.name });
    } catch (error) {
      telemetry().count('trove.jobs.failed', { 'trove.job.name': definition.name });
      const reason = error instanceof Error ? error.message : String(error);
      const last = job.retryCount >= job.retryLimit;
      this.logger.warn(
        `job ${definition.name} ${job.id} failed (attempt ${job.retryCount + 1} of ${job.retryLimit + 1}${last ? ', giving up' : ', will retry'}): ${reason}`,
      );
      throw error;
    }
  }

  /** Jobs waiting (created, retry) or running (active), by name, for the queue's gauge. */
  private async queuedJobs(): Promise<GaugeReading[]> {
    const rows = await this.database.query<{ name: string; state: string; count: string }>(
      `SELECT name, state::text AS state, count(*) AS count FROM ${JOB_QUEUE_SCHEMA}.job
        WHERE state IN ('created', 'retry', 'active') GROUP BY name, state`,
    );
    const counts = new Map(rows.map((row) => [`${row.name} ${row.state}`, Number(row.count)]));
    return [...this.definitions.keys()].flatMap((name) =>
      ['created', 'retry', 'active'].map((state) => ({
        value: counts.get(`${name} ${state}`) ?? 0,
        attributes: { 'trove.job.name': name, 'trove.job.state': state },
      })),
    );
  }

  private retryRules(
    definition: JobDefinition<object>,
  ): PgBoss.RetryOptions & PgBoss.ExpirationOptions {
    return {
      retryLimit: definition.retryLimit ?? DEFAULTS.retryLimit,
      retryDelay: definition.retryDelaySeconds ?? DEFAULTS.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: definition.expireInSeconds ?? DEFAULTS.expireInSeconds,
    };
  }

  /**
   * pg-boss's background errors. Once the queue has stopped, its pool's last connections may
   * still be cut (the database going down with the instance): that is no outage to report.
   */
  private reportError(error: Error): void {
    if (!this.started) return;
    if (databaseOutage.explains(error)) {
      databaseOutage.failed(error);
      return;
    }
    this.logger.warn(`job queue: ${error.message}`);
  }
}
