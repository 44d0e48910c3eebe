import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { as, createEntity, useSharedApp, useTestApp } from '../support/api.js';
import { expectUnauthenticated, VIEWER_ONLY_READS } from '../support/auth-expectations.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import {
  EXPORTS,
  exportZip,
  IMPORT,
  importZip,
  waitForJob,
  zipOf,
  type ExportBody,
} from './backup-helpers.js';

const MANIFEST = JSON.stringify({
  schemaVersion: 'trove-1',
  exportedAt: '2026-01-01T00:00:00.000Z',
  groupId: '00000000-0000-4000-8000-000000000001',
  troveVersion: '0.1.0',
  counts: {},
});

/** The group's jobs, entities and stored import zips: what a refused import must not change. */
async function footprint(trove: TestApp, session: Session) {
  const jobs = await trove.query('SELECT id FROM group_exports WHERE group_id = $1', [
    session.groupId,
  ]);
  const entities = await trove.query('SELECT id, name FROM entities WHERE group_id = $1', [
    session.groupId,
  ]);
  const imports = await readdir(
    path.join(trove.config.dataDir, 'attachments', session.groupId, 'imports'),
  ).catch(() => []);
  const staged = await readdir(path.join(trove.config.dataDir, 'tmp', 'backup-uploads')).catch(
    () => [],
  );
  return { jobs, entities, imports, staged };
}

/** A zip whose one entry is named `name`, which yazl itself would refuse to write. */
async function zipWithEntryName(name: string): Promise<Buffer> {
  const stand = 'x'.repeat(name.length);
  const zip = await zipOf({ 'manifest.json': MANIFEST, [stand]: 'evil' });
  const from = Buffer.from(stand);
  const to = Buffer.from(name);
  let at = zip.indexOf(from);
  while (at !== -1) {
    to.copy(zip, at);
    at = zip.indexOf(from, at + 1);
  }
  return zip;
}

describe('POST /group/import', () => {
  const app = useSharedApp();
  let backup: Buffer;

  beforeAll(async () => {
    const source = await signUp(app.trove);
    await createEntity(app.trove, source, 'Lamp');
    backup = (await exportZip(app.trove, source)).zip;
  });

  it('queues the restore (202) of a zip into an empty collection', async () => {
    const owner = await signUp(app.trove);
    const response = await importZip(app.trove, owner, backup);
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      id: expect.any(String),
      groupId: owner.groupId,
      kind: 'import',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      status: 'pending',
      progress: 0,
      sizeBytes: backup.length,
    });
    const listed = await as(app.trove, owner, 'get', EXPORTS).expect(200);
    expect((listed.body as { items: ExportBody[] }).items.map((item) => item.id)).toEqual([
      (response.body as ExportBody).id,
    ]);
  });

  describe('refuses, with nothing written', () => {
    let owner: Session;
    beforeAll(async () => {
      owner = await signUp(app.trove);
    });

    const cases: [string, () => Promise<Buffer>, string][] = [
      [
        'a file that is not a zip',
        () => Promise.resolve(Buffer.from('just text')),
        'the file is not a zip archive',
      ],
      [
        'an entry that climbs out of its folder',
        () => zipWithEntryName('../evil.txt'),
        'a zip entry name is not a safe relative path',
      ],
      [
        'an absolute entry name',
        () => zipWithEntryName('/etc/evil'),
        'a zip entry name is not a safe relative path',
      ],
      [
        'a zip that expands more than 100 times its size',
        () => zipOf({ 'manifest.json': MANIFEST, 'entities.json': Buffer.alloc(20_000_000, 32) }),
        'the zip expands to more than 100 times its size',
      ],
      [
        'an unknown schema version',
        () => zipOf({ 'manifest.json': JSON.stringify({ schemaVersion: 99 }) }),
        'unknown backup schema version 99',
      ],
      [
        'a zip without manifest',
        () => zipOf({ 'entities.json': '[]' }),
        'the zip has no manifest.json',
      ],
      [
        'a table that is not a JSON array',
        () => zipOf({ 'manifest.json': MANIFEST, 'tags.json': '{"id": 1}' }),
        'tags.json is not a JSON array: it does not start with "["',
      ],
      [
        'an attachment whose file is missing',
        () =>
          zipOf({
            'manifest.json': MANIFEST,
            'attachments.json': JSON.stringify([{ id: 'a', entity_id: 'e', file: 'nothing' }]),
          }),
        'the zip has no entry attachments/nothing',
      ],
    ];
    for (const [what, make, message] of cases) {
      it(what, async () => {
        const before = await footprint(app.trove, owner);
        const response = await importZip(app.trove, owner, await make());
        expect([response.status, response.body]).toEqual([400, { error: message }]);
        expect(await footprint(app.trove, owner)).toEqual(before);
      });
    }

    it('a form without file', async () => {
      const before = await footprint(app.trove, owner);
      const response = await as(app.trove, owner, 'post', IMPORT).field('note', 'none');
      expect([response.status, response.body]).toEqual([
        400,
        { error: 'file is required: a backup zip' },
      ]);
      expect(await footprint(app.trove, owner)).toEqual(before);
    });
  });

  it('records a restore that fails on the job (failed, with why), and leaves the collection as it was', async () => {
    const owner = await signUp(app.trove);
    const zip = await zipOf({
      'manifest.json': MANIFEST,
      'entities.json': JSON.stringify([
        { id: 'e1', name: 'Orphan', entity_type_id: 'no-such-type', parent_id: null },
      ]),
    });
    const entitiesBefore = (await footprint(app.trove, owner)).entities;
    const response = await importZip(app.trove, owner, zip);
    expect(response.status).toBe(202);
    const job = await waitForJob(app.trove, owner, (response.body as ExportBody).id);
    expect(job).toEqual({
      ...(response.body as ExportBody),
      updatedAt: expect.any(String),
      status: 'failed',
      progress: expect.any(Number),
      error: expect.stringContaining("the backup's rows cannot be restored: null value in column"),
    });
    const after = await footprint(app.trove, owner);
    expect(after.entities).toEqual(entitiesBefore);
    expect(after.imports).toEqual([]);
  });

  it('answers 409 for a collection that holds more than its seed data', async () => {
    const owner = await signUp(app.trove);
    await createEntity(app.trove, owner, 'Existing item');
    const before = await footprint(app.trove, owner);
    const response = await importZip(app.trove, owner, backup);
    expect([response.status, response.body]).toEqual([
      409,
      { error: 'the collection is not empty: import into a new or empty collection' },
    ]);
    expect(await footprint(app.trove, owner)).toEqual(before);
  });

  it('is for owners only: 403 for users and viewers', async () => {
    const owner = await signUp(app.trove);
    const member = await signUpMember(app.trove, owner, 'user');
    const viewer = await signUpMember(app.trove, owner, 'viewer');
    const before = await footprint(app.trove, owner);
    const byMember = await importZip(app.trove, member, backup);
    expect([byMember.status, byMember.body]).toEqual([
      403,
      { error: 'only group owners can import' },
    ]);
    const byViewer = await importZip(app.trove, viewer, backup);
    expect([byViewer.status, byViewer.body]).toEqual([403, VIEWER_ONLY_READS]);
    expect(await footprint(app.trove, owner)).toEqual(before);
  });

  it('needs a valid token', async () => {
    await expectUnauthenticated(app.trove, 'post', IMPORT);
  });
});

describe('POST /group/import in demo mode', () => {
  const demo = useTestApp({ TROVE_DEMO: 'true' });

  it('answers 403, with nothing written', async () => {
    const owner = await signUp(demo.trove);
    const zip = await zipOf({ 'manifest.json': MANIFEST });
    const before = await footprint(demo.trove, owner);
    const response = await importZip(demo.trove, owner, zip);
    expect([response.status, response.body]).toEqual([403, { error: 'not allowed in demo mode' }]);
    expect(await footprint(demo.trove, owner)).toEqual(before);
  });
});
