import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { THUMBNAIL_JOB } from '../../src/inventory/attachments/thumbnails.service.js';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { startTroveProcess, type TroveProcess } from '../support/trove-process.js';
import {
  as,
  attachmentRows,
  attachmentsUrl,
  createEntity,
  getEntity,
  jpeg,
  upload,
  uploadOk,
  waitForThumbnail,
  type AttachmentBody,
} from '../attachments/attachment-helpers.js';
import { createSharedPlace, jobRows, queryOn, waitFor, type SharedPlace } from './job-helpers.js';

/** The thumbnail job's retries (ThumbnailsService) and the queue's first retry delay. */
const THUMBNAIL_RETRY_LIMIT = 3;
const FIRST_RETRY_DELAY_SECONDS = 10;
/** For the tests that start instances and wait on background work: room for a loaded machine. */
const TEST_TIMEOUT_MS = 300_000;

const storedFile = (dataDir: string, key: string): string =>
  path.join(dataDir, 'attachments', ...key.split('/'));

describe('a thumbnail queued by an instance that is gone', () => {
  let place: SharedPlace;
  let queuer: TroveProcess | undefined;
  let worker: TestApp | undefined;

  beforeAll(async () => {
    place = await createSharedPlace();
  });
  afterAll(async () => {
    await queuer?.dispose();
    await worker?.close();
    await place.remove();
  });

  it(
    'is made by another instance once the API-only one that queued it was killed',
    async () => {
      // A: a real Trove process that only queues, on the shared database and data directory.
      queuer = await startTroveProcess({
        dataDir: place.dataDir,
        env: {
          DATABASE_URL: place.database.url,
          TROVE_WORKERS_ENABLED: 'false',
          TROVE_JOBS_POLL_INTERVAL: '1',
        },
      });
      const a = { http: supertest(queuer.baseUrl) };
      const owner = await signUp(a, { name: 'Ada' });
      const entity = await createEntity(a, owner, 'Lamp');
      const { attachment: photo } = await uploadOk(a, owner, entity.id, {
        content: await jpeg(400, 200),
        name: 'lamp.jpg',
      });

      const queued = await jobRows(place.database, THUMBNAIL_JOB);
      expect(queued).toMatchObject([
        { state: 'created', data: { photoId: photo.id }, retry_count: 0, started_on: null },
      ]);
      expect((await getEntity(a, owner, entity.id)).thumbnailId).toBeNull();

      queuer.signal('SIGKILL');
      expect((await queuer.exited).signal).toBe('SIGKILL');

      // B: an instance with workers on the same database and files.
      worker = await createTestApp({}, { database: place.database, dataDir: place.dataDir });
      const { attachment, entity: after } = await waitForThumbnail(
        worker,
        owner,
        entity.id,
        photo.id,
      );

      const thumbnail = attachment.thumbnail!;
      expect(thumbnail).toMatchObject({ type: 'thumbnail', mime_type: 'image/webp' });
      expect(after.thumbnailId).toBe(thumbnail.id);
      expect((await stat(storedFile(place.dataDir, thumbnail.path))).isFile()).toBe(true);
      const image = await as(worker, owner, 'get', `${attachmentsUrl(entity.id)}/${thumbnail.id}`);
      expect([image.status, image.headers['content-type']]).toEqual([200, 'image/webp']);
      expect(await jobRows(place.database, THUMBNAIL_JOB)).toMatchObject([
        { id: queued[0].id, state: 'completed', retry_count: 0, output: null },
      ]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('an API-only instance (TROVE_WORKERS_ENABLED=false)', () => {
  let trove: TestApp;
  let owner: Session;
  let stranger: Session;

  beforeAll(async () => {
    trove = await createTestApp({ TROVE_WORKERS_ENABLED: 'false' });
    owner = await signUp(trove);
    stranger = await signUp(trove);
  });
  afterAll(() => trove.close());
  afterEach(async () => {
    await trove.query('DROP TRIGGER IF EXISTS refuse_doomed ON attachments');
    await trove.query('DROP FUNCTION IF EXISTS refuse_doomed()');
  });

  const jobs = () => jobRows(trove.database, THUMBNAIL_JOB);

  it('queues the thumbnail of an upload but never runs it', async () => {
    const entity = await createEntity(trove, owner, 'Kettle');
    const { attachment: photo } = await uploadOk(trove, owner, entity.id, {
      content: await jpeg(90, 60),
      name: 'kettle.jpg',
    });
    const [queued] = (await jobs()).filter((job) => job.data.photoId === photo.id);
    expect(queued).toMatchObject({
      state: 'created',
      retry_count: 0,
      retry_limit: THUMBNAIL_RETRY_LIMIT,
      retry_delay: FIRST_RETRY_DELAY_SECONDS,
      retry_backoff: true,
      started_on: null,
    });

    // Three of its polling intervals (TROVE_JOBS_POLL_INTERVAL=1) pass: nobody takes the job.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    expect((await jobs()).find((job) => job.id === queued.id)).toMatchObject({
      state: 'created',
      started_on: null,
    });
    expect((await getEntity(trove, owner, entity.id)).thumbnailId).toBeNull();
    expect((await attachmentRows(trove, entity.id)).map((row) => row.type)).toEqual(['photo']);
    expect(await trove.query('SELECT name FROM pgboss.schedule')).toEqual([]);
  });

  it('queues nothing for an upload that is refused', async () => {
    const entity = await createEntity(trove, owner, 'Refused');
    const before = await jobs();

    const foreign = await upload(trove, stranger, entity.id, {
      content: await jpeg(30, 30),
      name: 'not-mine.jpg',
    });
    const badType = await upload(trove, owner, entity.id, {
      content: await jpeg(30, 30),
      name: 'bad.jpg',
      type: 'poster',
    });

    expect(foreign.status).toBe(404);
    expect(badType.status).toBe(422);
    expect(await jobs()).toEqual(before);
    expect(await attachmentRows(trove, entity.id)).toEqual([]);
  });

  it('queues nothing when the upload that queued the job fails at commit', async () => {
    const entity = await createEntity(trove, owner, 'Doomed');
    // A deferred check that refuses one title when the upload's transaction commits: after the
    // attachment was written and its thumbnail queued in the same transaction.
    await trove.query(`
      CREATE FUNCTION refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'doomed at commit' USING ERRCODE = 'check_violation',
          CONSTRAINT = 'attachments_doomed_check';
      END $$`);
    await trove.query(`
      CREATE CONSTRAINT TRIGGER refuse_doomed AFTER INSERT ON attachments
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
        WHEN (NEW.title = 'doomed.jpg') EXECUTE FUNCTION refuse_doomed()`);
    const before = await jobs();

    const doomed = await upload(trove, owner, entity.id, {
      content: await jpeg(40, 40),
      name: 'doomed.jpg',
    });
    const kept = await uploadOk(trove, owner, entity.id, {
      content: await jpeg(50, 50),
      name: 'kept.jpg',
    });

    expect(doomed.status).toBe(422);
    expect((await attachmentRows(trove, entity.id)).map((row) => row.id)).toEqual([
      kept.attachment.id,
    ]);
    const after = await jobs();
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length)).toMatchObject([
      { state: 'created', data: { photoId: kept.attachment.id } },
    ]);
  });
});

describe('a thumbnail job whose photo cannot be read', () => {
  let place: SharedPlace;
  let api: TestApp;
  let worker: TestApp | undefined;

  beforeAll(async () => {
    place = await createSharedPlace();
    api = await createTestApp(
      { TROVE_WORKERS_ENABLED: 'false' },
      { database: place.database, dataDir: place.dataDir },
    );
  });
  afterAll(async () => {
    await worker?.close();
    await api.close();
    await place.remove();
  });

  it(
    'is retried with a growing delay and finally fails with the error kept on the job',
    async () => {
      const owner = await signUp(api);
      const entity = await createEntity(api, owner, 'Vanished');
      const { attachment: photo } = await uploadOk(api, owner, entity.id, {
        content: await jpeg(80, 40),
        name: 'vanished.jpg',
      });
      await rm(storedFile(place.dataDir, photo.path));
      const [{ id }] = await jobRows(place.database, THUMBNAIL_JOB);

      worker = await createTestApp({}, { database: place.database, dataDir: place.dataDir });
      const job = async () => (await jobRows(place.database, THUMBNAIL_JOB))[0];
      const waits: number[] = [];
      for (let attempt = 0; attempt < THUMBNAIL_RETRY_LIMIT; attempt += 1) {
        const failed = await waitFor(
          job,
          (row) => row.state === 'retry' && row.retry_count === attempt && row.output !== null,
          `attempt ${attempt + 1} failed`,
        );
        expect(failed).toMatchObject({
          id,
          retry_limit: THUMBNAIL_RETRY_LIMIT,
          completed_on: null,
        });
        expect(failed.output!.message).toContain(photo.path);
        waits.push(failed.wait_seconds!);
        // Exponential backoff with jitter: 10-20 s after the first failure, 20-40 s, 40-80 s.
        const base = FIRST_RETRY_DELAY_SECONDS * 2 ** attempt;
        expect(failed.wait_seconds).toBeGreaterThanOrEqual(base);
        expect(failed.wait_seconds).toBeLessThan(2 * base + 5);
        // Skip the wait: the job may start again now (its next attempt is still the worker's).
        await queryOn(
          place.database.url,
          `UPDATE pgboss.job SET start_after = now() WHERE id = $1 AND state = 'retry'`,
          [id],
        );
      }

      const last = await waitFor(job, (row) => row.state === 'failed', 'the job failed for good');
      expect(last).toMatchObject({
        id,
        retry_count: THUMBNAIL_RETRY_LIMIT,
        completed_on: expect.any(Date),
      });
      expect(last.output).toMatchObject({ message: expect.stringContaining(photo.path) });
      expect(waits).toHaveLength(THUMBNAIL_RETRY_LIMIT);
      expect((await getEntity(worker, owner, entity.id)).thumbnailId).toBeNull();
      expect((await attachmentRows(worker, entity.id)).map((row) => row.type)).toEqual(['photo']);
      const health = await worker.http.get('/api/v1/health/ready');
      expect(health.status).toBe(200);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('two instances with workers on one database', () => {
  const PHOTOS = 8;
  let place: SharedPlace;
  let instances: TestApp[] = [];

  beforeAll(async () => {
    place = await createSharedPlace();
    const shared = { database: place.database, dataDir: place.dataDir };
    // Started together, as replicas of a new deployment are: both create the thumbnail queue.
    instances = await Promise.all([createTestApp({}, shared), createTestApp({}, shared)]);
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await place.remove();
  });

  it(
    'make each photo one thumbnail, each job running once',
    async () => {
      const owner = await signUp(instances[0]);
      const photos: { entityId: string; photo: AttachmentBody }[] = [];
      for (let n = 0; n < PHOTOS; n += 1) {
        const via = instances[n % 2];
        const entity = await createEntity(via, owner, `Item ${n}`);
        const { attachment } = await uploadOk(via, owner, entity.id, {
          content: await jpeg(60 + n, 40),
          name: `p${n}.jpg`,
        });
        photos.push({ entityId: entity.id, photo: attachment });
      }

      for (const [n, { entityId, photo }] of photos.entries()) {
        const { attachment } = await waitForThumbnail(instances[n % 2], owner, entityId, photo.id);
        expect(attachment.thumbnail).toMatchObject({ title: `p${n}.jpg-thumb` });
      }

      const jobs = await waitFor(
        () => jobRows(place.database, THUMBNAIL_JOB),
        (rows) => rows.every((row) => row.state === 'completed'),
        'every job completed',
      );
      expect(jobs.map((job) => job.data.photoId).sort()).toEqual(
        photos.map(({ photo }) => photo.id).sort(),
      );
      expect(
        jobs.map(({ state, retry_count, output }) => ({ state, retry_count, output })),
      ).toEqual(
        Array.from({ length: PHOTOS }, () => ({
          state: 'completed',
          retry_count: 0,
          output: null,
        })),
      );
      const rows = await queryOn<{ entity_id: string; type: string; n: number }>(
        place.database.url,
        `SELECT entity_id, type, count(*)::int AS n FROM attachments
        WHERE entity_id = ANY($1::uuid[]) GROUP BY entity_id, type ORDER BY entity_id, type`,
        [photos.map(({ entityId }) => entityId)],
      );
      expect(rows).toEqual(
        photos
          .map(({ entityId }) => entityId)
          .sort()
          .flatMap((entityId) => [
            { entity_id: entityId, type: 'photo', n: 1 },
            { entity_id: entityId, type: 'thumbnail', n: 1 },
          ]),
      );
    },
    TEST_TIMEOUT_MS,
  );
});
