import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstanceBackupsService } from '../../src/operations/instance-backups/instance-backups.service.js';
import { loadConfig } from '../../src/platform/config/configuration.js';
import { createEntity } from '../support/api.js';
import { signUp } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('scheduled instance backups', () => {
  let trove: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trove-scheduled-backups-'));
    trove = await createTestApp({
      TROVE_BACKUP_DIR: dir,
      TROVE_BACKUP_KEEP_DAILY: '2',
      TROVE_BACKUP_KEEP_WEEKLY: '1',
      TROVE_BACKUP_KEEP_MONTHLY: '0',
    });
    const owner = await signUp(trove);
    await createEntity(trove, owner, 'Drill');
  });

  afterAll(async () => {
    await trove?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes and verifies a backup per run and keeps exactly what retention promises', async () => {
    const backups = trove.app.get(InstanceBackupsService);
    const runs = [
      '2026-11-20T03:30:00.000Z',
      '2026-11-26T03:30:00.000Z',
      '2026-11-27T03:30:00.000Z',
      '2026-11-28T03:30:00.000Z',
    ];
    // A backup whose process ended while it ran (a crash, a deploy) stays running no longer.
    await trove.query(
      `INSERT INTO instance_backups (name, trigger, state, started_at)
       VALUES ('trove-backup-2026-11-19T03-30-00-000Z.tar.gz', 'schedule', 'running', '2026-11-19T03:30:00Z')`,
    );
    const deleted: string[] = [];
    for (const at of runs) {
      const run = await backups.run('schedule', new Date(at));
      expect(run.manifest.tables.entities).toBeGreaterThanOrEqual(1);
      deleted.push(...run.deleted);
    }
    // Two days (the 28th, the 27th) and the newest of the week (the 28th): the 26th and 20th go.
    expect((await readdir(dir)).sort()).toEqual([
      'trove-backup-2026-11-27T03-30-00-000Z.tar.gz',
      'trove-backup-2026-11-28T03-30-00-000Z.tar.gz',
    ]);
    expect(
      await trove.query(
        `SELECT state, error FROM instance_backups WHERE started_at < '2026-11-20'`,
      ),
    ).toEqual([
      { state: 'failed', error: 'interrupted: the process running it ended before it finished' },
    ]);
    expect(deleted.sort()).toEqual([
      'trove-backup-2026-11-20T03-30-00-000Z.tar.gz',
      'trove-backup-2026-11-26T03-30-00-000Z.tar.gz',
    ]);
  });

  it('is nightly by default with the embedded database and off with an external one', () => {
    expect(loadConfig({ TROVE_DATA_DIR: dir }).backups.schedule).toBe('30 3 * * *');
    expect(
      loadConfig({ TROVE_DATA_DIR: dir, DATABASE_URL: 'postgres://db/trove' }).backups.schedule,
    ).toBe('');
    expect(
      loadConfig({ TROVE_DATA_DIR: dir, TROVE_BACKUP_SCHEDULE: '0 2 * * 0' }).backups.schedule,
    ).toBe('0 2 * * 0');
    expect(() => loadConfig({ TROVE_BACKUP_SCHEDULE: 'sometimes' })).toThrow(
      'TROVE_BACKUP_SCHEDULE: must be auto, off or a cron expression of five fields (got "sometimes")',
    );
  });
});
