import { existsSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_ID, as, useSharedApp, useTestApp } from '../support/api.js';
import { expectUnauthenticated, VIEWER_ONLY_READS } from '../support/auth-expectations.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { openFeed } from '../events/feed.js';
import {
  download,
  downloadUrl,
  EXPORTS,
  exportUrl,
  exportZip,
  unzip,
  waitForJob,
  type ExportBody,
} from './backup-helpers.js';

const storedFile = (trove: TestApp, key: string): string =>
  path.join(trove.config.dataDir, 'attachments', key);

async function artifactKey(trove: TestApp, id: string): Promise<string | null> {
  const [row] = await trove.query<{ artifact_key: string | null }>(
    'SELECT artifact_key FROM group_exports WHERE id = $1',
    [id],
  );
  return row?.artifact_key ?? null;
}

describe('collection exports', () => {
  const app = useSharedApp();
  let viewer: Session;
  let member: Session;

  beforeAll(async () => {
    viewer = await signUpMember(app.trove, app.owner, 'viewer');
    member = await signUpMember(app.trove, app.owner, 'user');
  });

  describe('POST /group/exports', () => {
    it('queues an export (202) that completes, with its progress at 100', async () => {
      const response = await as(app.trove, member, 'post', EXPORTS);
      expect(response.status).toBe(202);
      const body = response.body as ExportBody;
      expect(body).toEqual({
        id: expect.any(String),
        groupId: app.owner.groupId,
        kind: 'export',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        status: 'pending',
        progress: 0,
        sizeBytes: 0,
      });
      const done = await waitForJob(app.trove, member, body.id);
      expect(done).toMatchObject({ status: 'completed', progress: 100 });
      expect(done.sizeBytes).toBeGreaterThan(0);
    });

    it('is refused to viewers, and nothing is queued', async () => {
      const before = await as(app.trove, viewer, 'get', EXPORTS).expect(200);
      const response = await as(app.trove, viewer, 'post', EXPORTS);
      expect([response.status, response.body]).toEqual([403, VIEWER_ONLY_READS]);
      const after = await as(app.trove, viewer, 'get', EXPORTS).expect(200);
      expect(after.body).toEqual(before.body);
    });

    it('needs a valid token', async () => {
      await expectUnauthenticated(app.trove, 'post', EXPORTS);
    });
  });

  describe('GET /group/exports and /group/exports/{id}', () => {
    it('lists the group’s jobs wrapped in items, newest first, to every member', async () => {
      const first = (await as(app.trove, app.owner, 'post', EXPORTS).expect(202))
        .body as ExportBody;
      const second = (await as(app.trove, app.owner, 'post', EXPORTS).expect(202))
        .body as ExportBody;
      await waitForJob(app.trove, app.owner, first.id);
      const done = await waitForJob(app.trove, app.owner, second.id);

      const response = await as(app.trove, viewer, 'get', EXPORTS);
      expect(response.status).toBe(200);
      const items = (response.body as { items: ExportBody[] }).items;
      expect(Object.keys(response.body as object)).toEqual(['items']);
      expect(items.slice(0, 2).map((item) => item.id)).toEqual([second.id, first.id]);
      const sorted = [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      expect(items.map((item) => item.id)).toEqual(sorted.map((item) => item.id));

      const one = await as(app.trove, viewer, 'get', exportUrl(second.id));
      expect(one.status).toBe(200);
      expect(one.body).toEqual({
        ...done,
        artifactPath: `/api/v1/group/exports/${second.id}/download`,
      });
    });

    it('answers 404 for unknown ids and for another group’s jobs, 400 for a bad id', async () => {
      const own = (await as(app.trove, app.owner, 'post', EXPORTS).expect(202)).body as ExportBody;
      const unknown = await as(app.trove, app.owner, 'get', exportUrl(UNKNOWN_ID));
      expect([unknown.status, unknown.body]).toEqual([
        404,
        { error: `export ${UNKNOWN_ID} not found` },
      ]);
      const foreign = await as(app.trove, app.stranger, 'get', exportUrl(own.id));
      expect([foreign.status, foreign.body]).toEqual([
        404,
        { error: `export ${own.id} not found` },
      ]);
      const strangers = await as(app.trove, app.stranger, 'get', EXPORTS).expect(200);
      expect(
        (strangers.body as { items: ExportBody[] }).items.map((item) => item.id),
      ).not.toContain(own.id);
      const bad = await as(app.trove, app.owner, 'get', exportUrl('not-a-uuid'));
      expect([bad.status, bad.body]).toEqual([400, { error: 'invalid route key: id' }]);
    });

    it('needs a valid token', async () => {
      await expectUnauthenticated(app.trove, 'get', EXPORTS);
      await expectUnauthenticated(app.trove, 'get', exportUrl(UNKNOWN_ID));
    });
  });

  describe('GET /group/exports/{id}/download', () => {
    it('streams the completed zip with its length and name', async () => {
      const { job, zip } = await exportZip(app.trove, app.owner);
      const response = await as(app.trove, viewer, 'get', downloadUrl(job.id));
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.headers['content-length']).toBe(String(zip.length));
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="trove-export-${job.id}.zip"`,
      );
      const entries = await unzip(zip);
      expect(JSON.parse(entries.get('manifest.json')!.toString())).toMatchObject({
        schemaVersion: 'trove-1',
        groupId: app.owner.groupId,
      });
    });

    it('answers 404 for unknown ids and another group’s exports', async () => {
      const { job } = await exportZip(app.trove, app.owner);
      const unknown = await as(app.trove, app.owner, 'get', downloadUrl(UNKNOWN_ID));
      expect([unknown.status, unknown.body]).toEqual([
        404,
        { error: `export ${UNKNOWN_ID} not found` },
      ]);
      const foreign = await as(app.trove, app.stranger, 'get', downloadUrl(job.id));
      expect([foreign.status, foreign.body]).toEqual([
        404,
        { error: `export ${job.id} not found` },
      ]);
    });

    it('needs a valid token', async () => {
      await expectUnauthenticated(app.trove, 'get', downloadUrl(UNKNOWN_ID));
    });
  });

  describe('DELETE /group/exports/{id}', () => {
    it('deletes the job and its zip (204), idempotently', async () => {
      const { job } = await exportZip(app.trove, app.owner);
      const key = (await artifactKey(app.trove, job.id))!;
      expect(existsSync(storedFile(app.trove, key))).toBe(true);

      await as(app.trove, member, 'delete', exportUrl(job.id)).expect(204);

      expect(await artifactKey(app.trove, job.id)).toBeNull();
      expect(existsSync(storedFile(app.trove, key))).toBe(false);
      await as(app.trove, app.owner, 'get', exportUrl(job.id)).expect(404);
      await as(app.trove, member, 'delete', exportUrl(job.id)).expect(204);
      await as(app.trove, member, 'delete', exportUrl(UNKNOWN_ID)).expect(204);
    });

    it('leaves another group’s export alone, and is refused to viewers', async () => {
      const { job } = await exportZip(app.trove, app.owner);
      await as(app.trove, app.stranger, 'delete', exportUrl(job.id)).expect(204);
      const denied = await as(app.trove, viewer, 'delete', exportUrl(job.id));
      expect([denied.status, denied.body]).toEqual([403, VIEWER_ONLY_READS]);
      await as(app.trove, app.owner, 'get', exportUrl(job.id)).expect(200);
      expect((await download(app.trove, app.owner, job.id)).length).toBe(job.sizeBytes);
    });

    it('needs a valid token', async () => {
      await expectUnauthenticated(app.trove, 'delete', exportUrl(UNKNOWN_ID));
    });
  });
});

describe('change feed', () => {
  const app = useSharedApp();

  it('tells the group’s sockets export.mutation as an export is queued, runs and completes', async () => {
    const feed = await openFeed(app.trove.baseUrl, {
      headers: { Authorization: app.owner.authorization },
    });
    const other = await openFeed(app.trove.baseUrl, {
      headers: { Authorization: app.stranger.authorization },
    });
    try {
      await exportZip(app.trove, app.owner);
      // queued, started, progress of each table, completed: every change of the row
      await feed.waitFor('export.mutation', 4, 20_000);
      expect(new Set(feed.events)).toEqual(new Set(['export.mutation']));
      await as(app.trove, app.stranger, 'post', '/api/v1/tags').send({ name: 'Mark' }).expect(201);
      await other.waitFor('tag.mutation');
      expect(other.events).toEqual(['tag.mutation']);
    } finally {
      await feed.close();
      await other.close();
    }
  });
});

describe('an export no worker has run yet', () => {
  const api = useTestApp({ TROVE_WORKERS_ENABLED: 'false' });

  it('stays pending, and its download answers 409 export not ready', async () => {
    const owner = await signUp(api.trove);
    const job = (await as(api.trove, owner, 'post', EXPORTS).expect(202)).body as ExportBody;
    const response = await as(api.trove, owner, 'get', downloadUrl(job.id));
    expect([response.status, response.body]).toEqual([409, { error: 'export not ready' }]);
    const read = await as(api.trove, owner, 'get', exportUrl(job.id)).expect(200);
    expect(read.body).toEqual(job);
  });
});
