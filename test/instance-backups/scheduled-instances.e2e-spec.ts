import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntity } from '../support/api.js';
import { signUp } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

interface BackupRow {
  name: string;
  trigger: string;
  state: string;
  startedAt: Date;
  deletedAt: Date | null;
}

/**
 * Two instances on one database, each with the schedule of a backup every minute: each
 * scheduled time makes at most one backup, by one of them, so there are never more backups
 * than minutes begun since the first started (the queue makes at most one job per scheduled
 * minute across instances, within a minute of it, so the last one's may still be to come).
 */
describe('the scheduled instance backup with two instances on one database', () => {
  let database: TestDatabase;
  let dirs: string[];
  let instances: TestApp[];
  let scheduleSince: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    dirs = await Promise.all(
      ['a', 'b'].map((name) => mkdtemp(path.join(os.tmpdir(), `trove-two-instances-${name}-`))),
    );
    instances = [];
    // From the first instance's start its schedule runs, the minute then begun included.
    scheduleSince = Date.now();
    for (const dir of dirs) {
      instances.push(
        await createTestApp(
          { TROVE_BACKUP_SCHEDULE: '* * * * *', TROVE_BACKUP_DIR: dir },
          { database },
        ),
      );
    }
    const owner = await signUp(instances[0], { name: 'Ada' });
    await createEntity(instances[1], owner, 'Drill');
  });

  afterAll(async () => {
    for (const instance of instances ?? []) await instance.close();
    await database?.drop();
    for (const dir of dirs ?? []) await rm(dir, { recursive: true, force: true });
  });

  const backups = (): Promise<BackupRow[]> =>
    instances[0].query<BackupRow>(
      `SELECT name, trigger, state, started_at AS "startedAt", deleted_at AS "deletedAt"
       FROM instance_backups
       ORDER BY started_at`,
    );

  it('writes one backup per scheduled time', async () => {
    const deadline = Date.now() + 150_000;
    while (!(await backups()).some((row) => row.state === 'completed')) {
      if (Date.now() > deadline) throw new Error('no scheduled backup completed in 150 s');
      await sleep(1000);
    }
    // Long enough for a second backup of the same scheduled time to have begun and ended.
    await sleep(35_000);
    while ((await backups()).some((row) => row.state === 'running')) await sleep(500);
    const rows = await backups();
    const scheduledTimes = Math.floor(Date.now() / 60_000) - Math.floor(scheduleSince / 60_000) + 1;
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(scheduledTimes);
    for (const row of rows) expect(row).toMatchObject({ trigger: 'schedule', state: 'completed' });
    expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length);
    // Each backup retention keeps is in the directory of the instance that made it, in no other.
    const files = (await Promise.all(dirs.map((dir) => readdir(dir)))).flat().sort();
    expect(files).toEqual(
      rows
        .filter((row) => row.deletedAt === null)
        .map((row) => row.name)
        .sort(),
    );
  }, 240_000);
});
