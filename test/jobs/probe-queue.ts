import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type INestApplicationContext,
  type OnModuleInit,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Database } from '../../src/platform/database/database.js';
import { DatabaseModule } from '../../src/platform/database/database.module.js';
import { JobQueue } from '../../src/platform/jobs/job-queue.js';
import { JobsModule } from '../../src/platform/jobs/jobs.module.js';

/** A job on a schedule of every minute. */
export const TICK_JOB = 'probe.tick';
/** A job that takes a while, then reads the database. */
export const SLOW_JOB = 'probe.slow';
/** How long the slow job waits before it reads the database. */
export const SLOW_JOB_MS = 1_500;

/** What the probe's handlers did on one instance. */
export interface ProbeRecord {
  /** Ids of the tick jobs this instance ran. */
  ticks: string[];
  /** Ids of the slow jobs this instance started. */
  slowStarted: string[];
  /** Outcome of each slow job this instance ran: `done` or the error's message. */
  slowOutcomes: string[];
}

const RECORD = Symbol('PROBE_RECORD');

/** Registers the probe's kinds of job, as a module of Trove registers its own. */
@Injectable()
class ProbeJobs implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly database: Database,
    @Inject(RECORD) private readonly record: ProbeRecord,
  ) {}

  onModuleInit(): void {
    this.jobs.register<object>({
      name: TICK_JOB,
      schedule: { cron: '* * * * *', data: {} },
      handle: async (_data, attempt) => {
        this.record.ticks.push(attempt.id);
        await this.database.query('SELECT 1');
      },
    });
    this.jobs.register<object>({
      name: SLOW_JOB,
      retryLimit: 0,
      handle: async (_data, attempt) => {
        this.record.slowStarted.push(attempt.id);
        await new Promise((resolve) => setTimeout(resolve, SLOW_JOB_MS));
        try {
          await this.database.query('SELECT 1');
          this.record.slowOutcomes.push('done');
        } catch (error) {
          this.record.slowOutcomes.push((error as Error).message);
          throw error;
        }
      },
    });
  }
}

@Module({})
class ProbeModule {
  static forRoot(url: string, record: ProbeRecord): DynamicModule {
    return {
      module: ProbeModule,
      // In the order of AppModule: the database first, then the queue.
      imports: [
        DatabaseModule.forRoot(url, { size: 2, waitMs: 5_000 }),
        JobsModule.forRoot({ url, workersEnabled: true, pollIntervalSeconds: 1, poolSize: 2 }),
      ],
      providers: [{ provide: RECORD, useValue: record }, ProbeJobs],
    };
  }
}

export interface ProbeInstance {
  readonly context: INestApplicationContext;
  readonly record: ProbeRecord;
  readonly jobs: JobQueue;
}

/**
 * An instance of Trove's job queue with workers, with the real `DatabaseModule` and
 * `JobsModule` on the database at `url`, running two kinds of job of its own (which Trove has
 * none like): a scheduled one and a slow one.
 */
export async function startProbe(url: string): Promise<ProbeInstance> {
  const record: ProbeRecord = { ticks: [], slowStarted: [], slowOutcomes: [] };
  const context = await NestFactory.createApplicationContext(ProbeModule.forRoot(url, record), {
    logger: false,
    abortOnError: false,
  });
  await context.init();
  return { context, record, jobs: context.get(JobQueue) };
}
