import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateX25519Identity } from 'age-encryption';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstanceBackupRefused } from '../../src/operations/instance-backups/instance-backup-format.js';
import { restoreInstanceBackup } from '../../src/operations/instance-backups/instance-backup-reader.js';
import { writeInstanceBackupFile } from '../../src/operations/instance-backups/instance-backup-writer.js';
import type { BackupEncryptionSettings } from '../../src/platform/config/configuration.js';
import { loadConfig } from '../../src/platform/config/configuration.js';
import { LocalDiskStorage } from '../../src/platform/storage/local-disk.storage.js';
import { attachmentUrl, binary, uploadOk } from '../attachments/attachment-helpers.js';
import { as, createEntity } from '../support/api.js';
import { signIn, signUp } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { tableCount } from './backup-helpers.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

describe('encrypted instance backups', () => {
  let original: TestApp;
  let work: string;
  let byPassphrase: string;
  let byKey: string;
  let ageKey: string;
  let entityId: string;
  let attachmentId: string;
  const passphrase = 'correct horse battery staple';
  const photo = randomBytes(20_000);
  let owner: Awaited<ReturnType<typeof signUp>>;

  const write = async (file: string, encryption: BackupEncryptionSettings): Promise<string> => {
    await writeInstanceBackupFile(
      {
        databaseUrl: original.database.url,
        storage: new LocalDiskStorage(path.join(original.config.dataDir, 'attachments')),
        troveVersion: original.config.build.version,
        encryption,
      },
      file,
    );
    return file;
  };

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'trove-encrypted-backup-'));
    original = await createTestApp();
    owner = await signUp(original, { name: 'Grace' });
    entityId = (await createEntity(original, owner, 'Camera')).id;
    ({
      attachment: { id: attachmentId },
    } = await uploadOk(original, owner, entityId, {
      content: photo,
      name: 'camera.bin',
      contentType: 'application/octet-stream',
    }));
    ageKey = await generateX25519Identity();
    byPassphrase = await write(path.join(work, 'passphrase.tar.gz.age'), { passphrase });
    byKey = await write(path.join(work, 'key.tar.gz.age'), { ageKey });
  });

  afterAll(async () => {
    await original?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('are age files that show nothing of the instance', async () => {
    for (const file of [byPassphrase, byKey]) {
      const bytes = await readFile(file);
      expect(bytes.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
      expect(bytes.includes(Buffer.from('trove-instance-backup'))).toBe(false);
      expect(bytes.includes(Buffer.from(owner.email))).toBe(false);
      expect(bytes.includes(photo.subarray(0, 64))).toBe(false);
    }
  });

  it('restore with their passphrase or key: users sign in and photos open', async () => {
    for (const [file, encryption] of [
      [byPassphrase, { passphrase }],
      [byKey, { ageKey }],
    ] as const) {
      const database = await createTestDatabase({ empty: true });
      const dataDir = await mkdtemp(path.join(work, 'data-'));
      try {
        const manifest = await restoreInstanceBackup(
          file,
          {
            databaseUrl: database.url,
            storage: new LocalDiskStorage(path.join(dataDir, 'attachments')),
          },
          encryption,
        );
        expect(manifest.fileCount).toBeGreaterThanOrEqual(1);
        const restored = await createTestApp({}, { database, dataDir });
        try {
          const session = { ...owner, ...(await signIn(restored, owner.email, owner.password)) };
          const file = await as(restored, session, 'get', attachmentUrl(entityId, attachmentId))
            .buffer(true)
            .parse(binary)
            .expect(200);
          expect(file.body).toEqual(photo);
        } finally {
          await restored.close();
        }
      } finally {
        await database.drop();
        await rm(dataDir, { recursive: true, force: true });
      }
    }
  });

  describe('are refused, writing nothing,', () => {
    let target: TestDatabase;
    let dataDir: string;

    beforeAll(async () => {
      target = await createTestDatabase({ empty: true });
      dataDir = await mkdtemp(path.join(work, 'refused-'));
    });
    afterAll(async () => {
      await target?.drop();
    });

    const restoreInto = (file: string, encryption: BackupEncryptionSettings | null) =>
      restoreInstanceBackup(
        file,
        {
          databaseUrl: target.url,
          storage: new LocalDiskStorage(path.join(dataDir, 'attachments')),
        },
        encryption,
      );

    const expectNothingWritten = async (): Promise<void> => {
      expect(await tableCount(target.url)).toBe(0);
      await expect(stat(path.join(dataDir, 'attachments'))).rejects.toThrow(/ENOENT/);
    };

    it('with a wrong passphrase', async () => {
      await expect(restoreInto(byPassphrase, { passphrase: 'wrong horse' })).rejects.toThrow(
        /^the archive cannot be decrypted with TROVE_BACKUP_PASSPHRASE: it was encrypted with another passphrase or key \(.+\); nothing was restored$/,
      );
      await expectNothingWritten();
    });

    it('with a wrong key, or a key for a passphrase', async () => {
      const other = await generateX25519Identity();
      await expect(restoreInto(byKey, { ageKey: other })).rejects.toThrow(
        /^the archive cannot be decrypted with TROVE_BACKUP_AGE_KEY: it was encrypted with another passphrase or key/,
      );
      await expect(restoreInto(byPassphrase, { ageKey })).rejects.toThrow(InstanceBackupRefused);
      await expectNothingWritten();
    });

    it('without a passphrase or key', async () => {
      await expect(restoreInto(byKey, null)).rejects.toThrow(
        new InstanceBackupRefused(
          'the archive is encrypted; set TROVE_BACKUP_PASSPHRASE or TROVE_BACKUP_AGE_KEY to the passphrase or key it was written with; nothing was restored',
        ),
      );
      await expectNothingWritten();
    });

    it('with one changed byte', async () => {
      const changed = path.join(work, 'changed.tar.gz.age');
      const bytes = await readFile(byKey);
      bytes[Math.floor(bytes.length / 2)] ^= 0x01;
      await writeFile(changed, bytes);
      await expect(restoreInto(changed, { ageKey })).rejects.toThrow(
        /^the archive is truncated or damaged \(.+\); nothing was restored$/,
      );
      await expectNothingWritten();
    });
  });

  it('takes a passphrase or an age key, not both, and a key only in its form', () => {
    expect(loadConfig({ TROVE_BACKUP_PASSPHRASE: passphrase }).backups.encryption).toEqual({
      passphrase,
    });
    expect(loadConfig({ TROVE_BACKUP_AGE_KEY: ageKey }).backups.encryption).toEqual({ ageKey });
    expect(loadConfig({}).backups.encryption).toBeNull();
    expect(() =>
      loadConfig({ TROVE_BACKUP_PASSPHRASE: passphrase, TROVE_BACKUP_AGE_KEY: ageKey }),
    ).toThrow(
      'TROVE_BACKUP_PASSPHRASE and TROVE_BACKUP_AGE_KEY are both set: set one (values hidden)',
    );
    expect(() => loadConfig({ TROVE_BACKUP_AGE_KEY: 'AGE-SECRET-KEY-1short' })).toThrow(
      'TROVE_BACKUP_AGE_KEY: must be an age identity (AGE-SECRET-KEY-1 and 58 more characters) (value hidden)',
    );
    expect(() => loadConfig({ TROVE_BACKUP_LOCAL_COPY: 'false' })).toThrow(
      'TROVE_BACKUP_S3_BUCKET: is required when TROVE_BACKUP_LOCAL_COPY is false (got "")',
    );
  });
});
