import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstanceBackupsService } from '../../src/operations/instance-backups/instance-backups.service.js';
import { as, createEntity } from '../support/api.js';
import { BAD_TOKEN, expectUnauthenticated, validation } from '../support/auth-expectations.js';
import { signUp, uniqueEmail, type Session } from '../support/factories.js';
import { startS3Server, type TestS3Server } from '../storage/s3-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const ADMIN_EMAIL = uniqueEmail('backup-admin');

describe('instance backups in a bucket, and the administrators’ list of them', () => {
  let s3: TestS3Server;
  let trove: TestApp;
  let dir: string;
  let admin: Session;
  let member: Session;
  const bucketEnv = (bucket: string): Record<string, string> => ({
    TROVE_BACKUP_S3_BUCKET: bucket,
    TROVE_BACKUP_S3_ENDPOINT: s3.endpoint,
    TROVE_BACKUP_S3_ACCESS_KEY_ID: s3.accessKeyId,
    TROVE_BACKUP_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    TROVE_BACKUP_S3_PREFIX: 'nightly',
  });

  const objectsInBucket = async (): Promise<string[]> => {
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      return (listed.Contents ?? []).map((object) => object.Key ?? '');
    } finally {
      client.destroy();
    }
  };

  beforeAll(async () => {
    s3 = await startS3Server('backups');
    dir = await mkdtemp(path.join(os.tmpdir(), 'trove-backup-list-'));
    trove = await createTestApp({
      ...bucketEnv(s3.bucket),
      TROVE_BACKUP_DIR: dir,
      TROVE_BACKUP_LOCAL_COPY: 'false',
      TROVE_BACKUP_PASSPHRASE: 'a long passphrase of five words',
      TROVE_ADMIN_EMAILS: ADMIN_EMAIL,
    });
    admin = await signUp(trove, { name: 'Root', email: ADMIN_EMAIL });
    member = await signUp(trove, { name: 'Ada' });
    await createEntity(trove, member, 'Drill');
  });

  afterAll(async () => {
    await trove?.close();
    await s3?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores a backup in the bucket only, and lists it with its counts and rehearsal', async () => {
    const at = new Date('2026-11-28T03:30:00.000Z');
    const run = await trove.app.get(InstanceBackupsService).run('command', at);
    const name = 'trove-backup-2026-11-28T03-30-00-000Z.tar.gz.age';
    expect(run.name).toBe(name);
    expect(run.locations).toEqual([`s3://backups/nightly/${name}`]);
    expect(await objectsInBucket()).toEqual([`nightly/${name}`]);
    // The directory held it only while it was written and checked.
    expect(await readdir(dir)).toEqual([]);

    const response = await as(trove, admin, 'get', '/api/v1/admin/backups').expect(200);
    expect(response.body).toEqual({
      page: 1,
      pageSize: 50,
      total: 1,
      items: [
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name,
          trigger: 'command',
          state: 'completed',
          startedAt: at.toISOString(),
          finishedAt: expect.any(String),
          sizeBytes: run.size,
          rowCount: Object.values(run.manifest.tables).reduce((sum, rows) => sum + rows, 0),
          fileCount: 0,
          tables: run.manifest.tables,
          encrypted: true,
          locations: [`s3://backups/nightly/${name}`],
          verifiedAt: expect.any(String),
          verification: 'passed',
          error: null,
          deletedAt: null,
        },
      ],
    });
    const [item] = (response.body as { items: { tables: Record<string, number> }[] }).items;
    expect(item.tables.entities).toBeGreaterThanOrEqual(1);
    expect(item.tables.users).toBe(2);
  });

  it('records a backup that could not be stored as failed, with why', async () => {
    const broken = await createTestApp(
      { ...bucketEnv('no-such-bucket'), TROVE_BACKUP_DIR: dir },
      { database: trove.database },
    );
    try {
      const backups = broken.app.get(InstanceBackupsService);
      await expect(backups.run('schedule')).rejects.toThrow(/bucket/i);
    } finally {
      await broken.close();
    }
    const response = await as(trove, admin, 'get', '/api/v1/admin/backups').expect(200);
    const body = response.body as { total: number; items: Record<string, unknown>[] };
    expect(body.total).toBe(2);
    expect(body.items[0]).toMatchObject({
      trigger: 'schedule',
      state: 'failed',
      encrypted: false,
      locations: [],
      verification: 'passed',
      error: expect.stringMatching(/bucket/i),
    });
    expect(await readdir(dir)).toEqual([]);
  });

  it('pages, and refuses bad paging', async () => {
    const second = await as(trove, admin, 'get', '/api/v1/admin/backups?page=2&pageSize=1').expect(
      200,
    );
    expect(second.body).toMatchObject({ page: 2, pageSize: 1, total: 2 });
    expect((second.body as { items: { state: string }[] }).items.map((i) => i.state)).toEqual([
      'completed',
    ]);
    const refused = await as(trove, admin, 'get', '/api/v1/admin/backups')
      .query({ page: 0, pageSize: 101 })
      .expect(422);
    expect(refused.body).toEqual(
      validation({
        page: 'page must not be less than 1',
        pageSize: 'pageSize must not be greater than 100',
      }),
    );
  });

  it('is for instance administrators only', async () => {
    const refused = await as(trove, member, 'get', '/api/v1/admin/backups').expect(403);
    expect(refused.body).toEqual({ error: 'only instance administrators can do this' });
    await expectUnauthenticated(trove, 'get', '/api/v1/admin/backups');
    const forged = await trove.http
      .get('/api/v1/admin/backups')
      .set('Authorization', 'Bearer nope');
    expect(forged.body).toEqual(BAD_TOKEN);
  });
});
