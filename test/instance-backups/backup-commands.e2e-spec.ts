import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentUrl, binary, uploadOk } from '../attachments/attachment-helpers.js';
import { as, createEntity } from '../support/api.js';
import { signIn, signUp, type Session } from '../support/factories.js';
import { startS3Server, type TestS3Server } from '../storage/s3-server.js';
import { runCliCommand } from '../support/cli-command.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { tableCount } from './backup-helpers.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** The commands compile the application's sources as they load them: seconds a run. */
const COMMAND_TIMEOUT_MS = 120_000;

const runCommand = (command: 'backup' | 'restore', args: string[], env: Record<string, string>) =>
  runCliCommand(command, args, env);

describe('npm run backup and npm run restore, through an S3 bucket', () => {
  let s3: TestS3Server;
  let original: TestApp;
  let owner: Session;
  let entityId: string;
  let attachmentId: string;
  let work: string;
  let bucketEnv: Record<string, string>;
  let location: string;
  const photo = randomBytes(50_000);
  const passphrase = 'four random words here';

  beforeAll(async () => {
    s3 = await startS3Server('offsite');
    work = await mkdtemp(path.join(os.tmpdir(), 'trove-backup-commands-'));
    original = await createTestApp();
    owner = await signUp(original, { name: 'Ada' });
    entityId = (await createEntity(original, owner, 'Telescope')).id;
    ({
      attachment: { id: attachmentId },
    } = await uploadOk(original, owner, entityId, {
      content: photo,
      name: 'telescope.jpg',
      contentType: 'application/octet-stream',
    }));
    bucketEnv = {
      TROVE_BACKUP_S3_BUCKET: s3.bucket,
      TROVE_BACKUP_S3_ENDPOINT: s3.endpoint,
      TROVE_BACKUP_S3_ACCESS_KEY_ID: s3.accessKeyId,
      TROVE_BACKUP_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      TROVE_BACKUP_PASSPHRASE: passphrase,
    };
  });

  afterAll(async () => {
    await original?.close();
    await s3?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it(
    'backs up into the directory and the bucket, lists and verifies the copy in the bucket',
    async () => {
      const env = {
        ...bucketEnv,
        DATABASE_URL: original.database.url,
        TROVE_DATA_DIR: original.config.dataDir,
        TROVE_BACKUP_DIR: path.join(work, 'backups'),
      };
      const backup = await runCommand('backup', [], env);
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      expect(backup.stdout).toMatch(
        /^trove-backup-[\dT-]+Z\.tar\.gz\.age: \d+ bytes in \d+ ms: \d+ rows of \d+ tables, 1 files, restore rehearsed; stored at s3:\/\/offsite\/trove-backups\/trove-backup-\S+\.age, \S+\.age\n$/,
      );
      const name = /^(\S+):/.exec(backup.stdout)?.[1] ?? '';
      location = `s3://offsite/trove-backups/${name}`;
      expect(await readdir(path.join(work, 'backups'))).toEqual([name]);

      const listed = await runCommand('backup', ['--list'], env);
      expect(listed).toEqual({
        code: 0,
        stdout: `${location}\n${path.join(work, 'backups', name)}\n`,
        stderr: '',
      });
      const verified = await runCommand('backup', ['--verify', location], env);
      expect(verified.stderr).toBe('');
      expect(verified.stdout).toMatch(
        new RegExp(
          `^${location.replace(/[.]/g, '\\.')}: verified in \\d+ ms: Trove .+, 1 files, every checksum and row count as the manifest says\\n$`,
        ),
      );
      // The rehearsal drops its scratch database; the instance's backup is listed as the command's.
      const [row] = await original.query<{ trigger: string; state: string; verification: string }>(
        'SELECT trigger, state, verification FROM instance_backups',
      );
      expect(row).toEqual({ trigger: 'command', state: 'completed', verification: 'passed' });
    },
    COMMAND_TIMEOUT_MS * 3,
  );

  describe('restore from the bucket into an empty database and data directory', () => {
    let target: TestDatabase;
    let dataDir: string;

    beforeAll(async () => {
      target = await createTestDatabase({ empty: true });
      dataDir = await mkdtemp(path.join(work, 'restored-'));
    });
    afterAll(async () => {
      await target?.drop();
    });

    it(
      'is refused with a wrong passphrase, writing nothing',
      async () => {
        const refused = await runCommand('restore', [location], {
          ...bucketEnv,
          TROVE_BACKUP_PASSPHRASE: 'not the passphrase',
          DATABASE_URL: target.url,
          TROVE_DATA_DIR: dataDir,
        });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(
          new RegExp(
            `^${location.replace(/[.]/g, '\\.')}: not restored: the archive cannot be decrypted with TROVE_BACKUP_PASSPHRASE: it was encrypted with another passphrase or key \\(.+\\); nothing was restored\\n$`,
          ),
        );
        expect(await tableCount(target.url)).toBe(0);
        // No stored file: at most the empty folders of the storage.
        const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
        expect(entries.filter((entry) => entry.isFile())).toEqual([]);
      },
      COMMAND_TIMEOUT_MS,
    );

    it(
      'brings back every user, their password and their photos',
      async () => {
        const restore = await runCommand('restore', [location], {
          ...bucketEnv,
          DATABASE_URL: target.url,
          TROVE_DATA_DIR: dataDir,
        });
        expect(restore.stderr).toBe('');
        expect(restore.code).toBe(0);
        expect(restore.stdout).toMatch(/: restored in \d+ ms: \d+ rows, 1 files, from Trove /);
        // The archive holds the backups made before it, not its own row (running when written).
        const pool = new pg.Client({ connectionString: target.url });
        await pool.connect();
        try {
          const rows = await pool.query('SELECT name FROM instance_backups');
          expect(rows.rows).toEqual([]);
        } finally {
          await pool.end();
        }
        const restored = await createTestApp({}, { database: target, dataDir });
        try {
          const session = { ...owner, ...(await signIn(restored, owner.email, owner.password)) };
          const file = await as(restored, session, 'get', attachmentUrl(entityId, attachmentId))
            .buffer(true)
            .parse(binary)
            .expect(200);
          expect(file.body).toEqual(photo);
          const entity = await as(restored, session, 'get', `/api/v1/entities/${entityId}`).expect(
            200,
          );
          expect((entity.body as { name: string }).name).toBe('Telescope');
        } finally {
          await restored.close();
        }
      },
      COMMAND_TIMEOUT_MS,
    );
  });

  it('refuses bad usage', async () => {
    const result = await runCommand('backup', ['--list', '--verify', 'x'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'usage: npm run backup [-- --verify <archive or s3://bucket/key> | --list]\n',
    );
  });
});
