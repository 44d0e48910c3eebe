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
}

/**
 * Two instances on one database, each with the schedule of a backup every minute: each
 * scheduled time makes one backup, by one of them. The queue checks its schedules every 30
 * seconds, so a scheduled time's job is made within 30 seconds of it: two backups of one
 * scheduled time would start less than 30 seconds apart, two of successive ones at least 30.
 */
describe('the scheduled instance backup with two instances on one database', () => {
  let database: TestDatabase;
  let dirs: string[];
  let instances: TestApp[];

  beforeAll(async () => {
    database = await createTestDatabase();
    dirs = await Promise.all(
      ['a', 'b'].map((name) => mkdtemp(path.join(os.tmpdir(), `trove-two-instances-${name}-`))),
    );
    instances = [];
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
      `SELECT name, trigger, state, started_at AS "startedAt" FROM instance_backups
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
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const row of rows) expect(row).toMatchObject({ trigger: 'schedule', state: 'completed' });
    for (let i = 1; i < rows.length; i += 1) {
      const apart = rows[i].startedAt.getTime() - rows[i - 1].startedAt.getTime();
      expect(apart).toBeGreaterThanOrEqual(30_000);
    }
    // Each backup is in the directory of the instance that made it, and in no other.
    const files = (await Promise.all(dirs.map((dir) => readdir(dir)))).flat().sort();
    expect(files).toEqual(rows.map((row) => row.name).sort());
  }, 240_000);
});
