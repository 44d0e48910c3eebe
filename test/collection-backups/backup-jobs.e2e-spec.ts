import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXPORT_JOB,
  GroupExportsService,
} from '../../src/operations/collection-backups/group-exports.service.js';
import { as, createEntity, useSharedApp } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createSharedPlace, jobRows, waitFor, type SharedPlace } from '../jobs/job-helpers.js';
import {
  download,
  EXPORTS,
  exportUrl,
  exportZip,
  unzip,
  waitForJob,
  type ExportBody,
} from './backup-helpers.js';

/** For the tests that start instances and wait on background work: room for a loaded machine. */
const TEST_TIMEOUT_MS = 120_000;

const exportsDir = (dataDir: string, groupId: string): string =>
  path.join(dataDir, 'attachments', groupId, 'exports');

interface Row {
  status: string;
  attempt: string | null;
  progress: number;
}

describe('exports on two instances sharing a database', () => {
  let place: SharedPlace;
  let first: TestApp | undefined;
  let second: TestApp | undefined;
  let owner: Session;

  beforeAll(async () => {
    place = await createSharedPlace();
    first = await createTestApp({}, place);
    second = await createTestApp({}, place);
    owner = await signUp(first);
    await createEntity(first, owner, 'Lamp');
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await place.remove();
  });

  it(
    'runs each queued export exactly once',
    async () => {
      const ids: string[] = [];
      for (let index = 0; index < 4; index += 1) {
        const instance = index % 2 === 0 ? first! : second!;
        ids.push(((await as(instance, owner, 'post', EXPORTS).expect(202)).body as ExportBody).id);
      }
      for (const id of ids) {
        expect((await waitForJob(first!, owner, id)).status).toBe('completed');
      }
      const jobs = (await jobRows(place.database, EXPORT_JOB)).filter((job) =>
        ids.includes(job.data.id as string),
      );
      expect(jobs.map((job) => [job.state, job.retry_count])).toEqual(
        ids.map(() => ['completed', 0]),
      );
      // One zip per export: no second run wrote another.
      const zips = await readdir(exportsDir(place.dataDir, owner.groupId));
      expect(zips.map((zip) => zip.slice(0, 36)).sort()).toEqual([...ids].sort());
      expect(zips).toHaveLength(ids.length);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('an export whose instance stops mid-way', () => {
  let place: SharedPlace;
  let stopping: TestApp | undefined;
  let taker: TestApp | undefined;
  let blocker: pg.Client | undefined;

  beforeAll(async () => {
    place = await createSharedPlace();
  });
  afterAll(async () => {
    await blocker?.end().catch(() => undefined);
    await taker?.close();
    await place.remove();
  });

  it(
    'is taken over and finished by the other instance, the first attempt’s work discarded',
    async () => {
      stopping = await createTestApp({}, place);
      const owner = await signUp(stopping);
      const entity = await createEntity(stopping, owner, 'Lamp');
      await as(stopping, owner, 'post', `/api/v1/entities/${entity.id}/maintenance`)
        .send({ name: 'Oil', completedDate: '2025-01-01' })
        .expect(201);
      const rowOf = async (id: string): Promise<Row> =>
        (
          await stopping!.query<Row>(
            'SELECT status, attempt, progress FROM group_exports WHERE id = $1',
            [id],
          )
        )[0];

      // The export stops at the maintenance table while this transaction holds it.
      blocker = new pg.Client({ connectionString: place.database.url });
      await blocker.connect();
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE maintenance_entries IN ACCESS EXCLUSIVE MODE');

      const job = (await as(stopping, owner, 'post', EXPORTS).expect(202)).body as ExportBody;
      const running = await waitFor(
        () => rowOf(job.id),
        (row) => row.status === 'running' && row.progress > 0,
        'the export running on the first instance',
      );

      taker = await createTestApp({}, place);
      const closing = stopping.close();
      await waitFor(
        () => queryOnPlace(place, job.id),
        (attempt) => attempt !== null && attempt !== running.attempt,
        'the second instance taking the export over',
        60_000,
      );
      await blocker.query('ROLLBACK');
      await closing;

      const done = await waitForJob(taker, owner, job.id);
      expect(done).toMatchObject({ status: 'completed', progress: 100 });
      const entries = await unzip(await download(taker, owner, job.id));
      expect(JSON.parse(entries.get('maintenance_entries.json')!.toString())).toHaveLength(1);
      const attempts = (await jobRows(place.database, EXPORT_JOB)).filter(
        (row) => row.data.id === job.id,
      );
      expect(attempts.map((row) => [row.state, row.retry_count])).toEqual([['completed', 1]]);
      // Only the second attempt's zip is left.
      const zips = await readdir(exportsDir(place.dataDir, owner.groupId));
      expect(zips).toHaveLength(1);
      expect(zips[0]).not.toContain(running.attempt!);
    },
    TEST_TIMEOUT_MS,
  );
});

async function queryOnPlace(place: SharedPlace, id: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: place.database.url });
  await client.connect();
  try {
    const result = await client.query<{ attempt: string | null }>(
      'SELECT attempt FROM group_exports WHERE id = $1',
      [id],
    );
    return result.rows[0]?.attempt ?? null;
  } finally {
    await client.end();
  }
}

describe('the stale export purge', () => {
  const app = useSharedApp();

  it('deletes jobs and zips older than seven days, and leaves newer ones', async () => {
    const owner = app.owner;
    const old = await exportZip(app.trove, owner);
    const recent = await exportZip(app.trove, owner);
    const [{ artifact_key: oldKey }] = await app.trove.query<{ artifact_key: string }>(
      'SELECT artifact_key FROM group_exports WHERE id = $1',
      [old.job.id],
    );
    const oldFile = path.join(app.trove.config.dataDir, 'attachments', oldKey);
    expect(existsSync(oldFile)).toBe(true);
    await app.trove.query(
      "UPDATE group_exports SET created_at = now() - interval '8 days' WHERE id = $1",
      [old.job.id],
    );

    const purged = await app.trove.app.get(GroupExportsService).purgeStale();

    expect(purged).toBe(1);
    expect(existsSync(oldFile)).toBe(false);
    await as(app.trove, owner, 'get', exportUrl(old.job.id)).expect(404);
    await as(app.trove, owner, 'get', exportUrl(recent.job.id)).expect(200);
    expect((await download(app.trove, owner, recent.job.id)).equals(recent.zip)).toBe(true);
    const stranger = await signUp(app.trove);
    expect((await as(app.trove, stranger, 'get', EXPORTS).expect(200)).body).toEqual({ items: [] });
  });
});
