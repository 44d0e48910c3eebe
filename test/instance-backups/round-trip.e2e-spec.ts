import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InstanceBackupRefused,
  MANIFEST_ENTRY,
} from '../../src/operations/instance-backups/instance-backup-format.js';
import {
  checkInstanceBackup,
  restoreInstanceBackup,
  verifyInstanceBackup,
} from '../../src/operations/instance-backups/instance-backup-reader.js';
import { writeInstanceBackupFile } from '../../src/operations/instance-backups/instance-backup-writer.js';
import { RestoreTargetRefused } from '../../src/platform/database/database-copy.js';
import { LocalDiskStorage } from '../../src/platform/storage/local-disk.storage.js';
import { attachmentUrl, binary, uploadOk } from '../attachments/attachment-helpers.js';
import { as, createEntity } from '../support/api.js';
import { signIn, signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { tableCount } from './backup-helpers.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** What a user sees of their instance: entities, tree, statistics, attachment bytes. */
async function view(trove: TestApp, session: Session, entityId: string, attachmentId: string) {
  const entities = (await as(trove, session, 'get', '/api/v1/entities?pageSize=100').expect(200))
    .body as unknown;
  const tree = (await as(trove, session, 'get', '/api/v1/entities/tree').expect(200))
    .body as unknown;
  const statistics = (await as(trove, session, 'get', '/api/v1/groups/statistics').expect(200))
    .body as unknown;
  const file = await as(trove, session, 'get', attachmentUrl(entityId, attachmentId))
    .buffer(true)
    .parse(binary)
    .expect(200);
  return { entities, tree, statistics, bytes: (file.body as Buffer).toString('hex') };
}

describe('instance backups', () => {
  let original: TestApp;
  let work: string;
  let archive: string;
  let owner: Session;
  let apiKey: string;
  let entityId: string;
  let attachmentId: string;
  let before: Awaited<ReturnType<typeof view>>;
  const photo = randomBytes(40_000);

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'trove-instance-backup-'));
    original = await createTestApp();
    owner = await signUp(original, { name: 'Ada' });
    const shelf = await createEntity(original, owner, 'Shelf');
    const drill = await createEntity(original, owner, { name: 'Drill', parentId: shelf.id });
    entityId = drill.id;
    ({
      attachment: { id: attachmentId },
    } = await uploadOk(original, owner, entityId, {
      content: photo,
      name: 'drill.bin',
      contentType: 'application/octet-stream',
    }));
    const key = await as(original, owner, 'post', '/api/v1/users/self/api-keys')
      .send({ name: 'script' })
      .expect(201);
    apiKey = (key.body as { token: string }).token;
    before = await view(original, owner, entityId, attachmentId);
    archive = path.join(work, 'backup.tar.gz');
    await writeInstanceBackupFile(
      {
        databaseUrl: original.database.url,
        storage: new LocalDiskStorage(path.join(original.config.dataDir, 'attachments')),
        troveVersion: original.config.build.version,
      },
      archive,
    );
  });

  afterAll(async () => {
    await original?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('restores into an empty database and data directory what the instance held', async () => {
    const database = await createTestDatabase({ empty: true });
    const dataDir = await mkdtemp(path.join(work, 'data-'));
    try {
      const manifest = await restoreInstanceBackup(archive, {
        databaseUrl: database.url,
        storage: new LocalDiskStorage(path.join(dataDir, 'attachments')),
      });
      expect(manifest.tables.users).toBeGreaterThanOrEqual(1);
      expect(manifest.tables.server_secrets).toBeGreaterThanOrEqual(1);
      expect(manifest.fileCount).toBeGreaterThanOrEqual(1);
      const restored = await createTestApp({}, { database, dataDir });
      try {
        // The old session's token, signed with the restored secret, still works.
        const session = { ...owner };
        expect(await view(restored, session, entityId, attachmentId)).toEqual(before);
        expect(Buffer.from(before.bytes, 'hex')).toEqual(photo);
        // The password signs in, and the API key (peppered with the restored secret) works.
        const signedIn = await signIn(restored, owner.email, owner.password);
        await restored.http
          .get(`/api/v1/entities/${entityId}`)
          .set('Authorization', signedIn.authorization)
          .expect(200);
        const byKey = await restored.http
          .get(`/api/v1/entities/${entityId}`)
          .set('Authorization', apiKey)
          .expect(200);
        expect((byKey.body as { name: string }).name).toBe('Drill');
        // New rows get fresh ids and asset ids after the restored ones.
        await createEntity(restored, owner, 'Ladder');
      } finally {
        await restored.close();
      }
    } finally {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('rehearses a restore into a scratch database and drops it', async () => {
    const manifest = await verifyInstanceBackup(archive, original.database.url);
    expect(manifest.schemaVersion).toMatch(/\d{13}$/);
  });

  describe('refuses, writing nothing,', () => {
    let target: TestDatabase;
    let dataDir: string;

    beforeAll(async () => {
      target = await createTestDatabase({ empty: true });
      dataDir = await mkdtemp(path.join(work, 'refused-'));
    });
    afterAll(async () => {
      await target?.drop();
    });

    const restoreInto = (file: string) =>
      restoreInstanceBackup(file, {
        databaseUrl: target.url,
        storage: new LocalDiskStorage(path.join(dataDir, 'attachments')),
      });

    const expectNothingWritten = async (): Promise<void> => {
      expect(await tableCount(target.url)).toBe(0);
      await expect(stat(path.join(dataDir, 'attachments'))).rejects.toThrow(/ENOENT/);
    };

    it('a truncated archive', async () => {
      const cut = path.join(work, 'cut.tar.gz');
      await writeFile(cut, await readFile(archive));
      await truncate(cut, (await stat(cut)).size - 100);
      await expect(restoreInto(cut)).rejects.toThrow(
        new InstanceBackupRefused(
          'the archive is truncated or damaged (unexpected end of file); nothing was restored',
        ),
      );
      await expectNothingWritten();
    });

    it('an archive with one changed byte', async () => {
      const changed = path.join(work, 'changed.tar.gz');
      const bytes = await readFile(archive);
      bytes[Math.floor(bytes.length / 2)] ^= 0x01;
      await writeFile(changed, bytes);
      await expect(restoreInto(changed)).rejects.toThrow(InstanceBackupRefused);
      await expect(restoreInto(changed)).rejects.toThrow(/truncated or damaged|checksum/);
      await expectNothingWritten();
    });

    it('an archive from a newer schema', async () => {
      const manifest = await checkInstanceBackup(archive);
      expect(manifest.parts.map((part) => part.name)).not.toContain(MANIFEST_ENTRY);
      const newer = path.join(work, 'newer.tar.gz');
      await rewriteManifest(archive, newer, (text) =>
        text.replace(manifest.schemaVersion, 'FromTheFuture1999999999999'),
      );
      await expect(restoreInto(newer)).rejects.toThrow(
        `the archive comes from a newer Trove (${manifest.troveVersion}, schema FromTheFuture1999999999999) than this one; upgrade Trove to restore it`,
      );
      await expectNothingWritten();
    });

    it('a database that is not empty', async () => {
      await expect(
        restoreInstanceBackup(archive, { databaseUrl: original.database.url }),
      ).rejects.toThrow(RestoreTargetRefused);
      await expect(
        restoreInstanceBackup(archive, { databaseUrl: original.database.url }),
      ).rejects.toThrow(/^the target database is not empty \(it has \d+ table\(s\)\)/);
      await expectNothingWritten();
    });
  });
});

/** Copies an archive with its manifest's text changed. */
async function rewriteManifest(
  from: string,
  to: string,
  change: (text: string) => string,
): Promise<void> {
  const { createReadStream, createWriteStream } = await import('node:fs');
  const { pipeline } = await import('node:stream/promises');
  const zlib = await import('node:zlib');
  const tar = (await import('tar-stream')).default;
  const extract = tar.extract();
  const pack = tar.pack();
  const done = pipeline(pack, zlib.createGzip(), createWriteStream(to));
  const reading = pipeline(createReadStream(from), zlib.createGunzip(), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (entry.header.name === MANIFEST_ENTRY) body = Buffer.from(change(body.toString('utf8')));
    pack.entry({ ...entry.header, size: body.length }, body);
  }
  await reading;
  pack.finalize();
  await done;
}
