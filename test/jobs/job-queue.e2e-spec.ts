import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { jobRows, queryOn, waitFor } from './job-helpers.js';
import {
  SLOW_JOB,
  startProbe,
  TICK_JOB,
  type ProbeInstance,
  type ProbeRecord,
} from './probe-queue.js';

describe('a schedule with two instances on one database', () => {
  let database: TestDatabase;
  let instances: ProbeInstance[] = [];
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    for (const instance of instances) await instance.context.close();
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    instances = await Promise.all([startProbe(database.url), startProbe(database.url)]);
  });
  afterAll(async () => {
    await close();
    await database.drop();
  });

  it('is kept once, and each job it makes runs on one instance only', async () => {
    expect(await queryOn(database.url, 'SELECT name, cron, timezone FROM pgboss.schedule')).toEqual(
      [{ name: TICK_JOB, cron: '* * * * *', timezone: 'UTC' }],
    );

    // pg-boss looks at its schedules every 30 s, on one instance at a time (the one that first
    // moves pgboss.version's cron_on), and queues the minute's job a few seconds later. Each
    // instance looked once as it started, before the schedule was kept; forget when, so that
    // the next look, 30 s after the start, is not put off by another 30 s.
    await queryOn(database.url, 'UPDATE pgboss.version SET cron_on = NULL');
    await waitFor(
      () => jobRows(database, TICK_JOB),
      (rows) => rows.some((row) => row.state === 'completed'),
      'a scheduled job completed',
      90_000,
    );
    await close();

    const ran = instances.flatMap((instance) => instance.record.ticks);
    const jobs = await jobRows(database, TICK_JOB);
    expect(new Set(ran).size).toBe(ran.length);
    expect([...ran].sort()).toEqual(jobs.map((job) => job.id).sort());
    expect(jobs.map((job) => [job.state, job.retry_count])).toEqual(
      jobs.map(() => ['completed', 0]),
    );
  }, 120_000);
});

describe('stopping an instance while a job runs', () => {
  let database: TestDatabase;
  let instance: ProbeInstance;
  let closed = false;

  beforeAll(async () => {
    database = await createTestDatabase();
    instance = await startProbe(database.url);
  });
  afterAll(async () => {
    if (!closed) await instance.context.close();
    await database.drop();
  });

  it('lets the job finish on the still open database, then stops', async () => {
    const id = await instance.jobs.send(SLOW_JOB, {});
    expect(id).toEqual(expect.any(String));
    const record: ProbeRecord = instance.record;
    await waitFor(
      () => Promise.resolve(record.slowStarted),
      (started) => started.includes(id!),
      'the slow job started',
    );

    await instance.context.close();
    closed = true;

    expect(record.slowOutcomes).toEqual(['done']);
    expect(await jobRows(database, SLOW_JOB)).toMatchObject([
      { id, state: 'completed', output: null },
    ]);
  });
});
