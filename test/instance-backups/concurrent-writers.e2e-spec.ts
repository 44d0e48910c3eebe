import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreInstanceBackup } from '../../src/operations/instance-backups/instance-backup-reader.js';
import { writeInstanceBackupFile } from '../../src/operations/instance-backups/instance-backup-writer.js';
import { LocalDiskStorage } from '../../src/platform/storage/local-disk.storage.js';
import { as } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase } from '../support/test-database.js';

const WRITERS = 16;

interface Statistics {
  totalItems: number;
}

describe('an instance backup taken while 16 writers go on', () => {
  let original: TestApp;
  let work: string;
  let owner: Session;

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'trove-concurrent-backup-'));
    original = await createTestApp({ TROVE_DATABASE_POOL_SIZE: '8' });
    owner = await signUp(original, { name: 'Ada' });
  });

  afterAll(async () => {
    await original?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('restores every write acknowledged before it began, and nothing half-written', async () => {
    const acknowledged = new Set<string>();
    const attempted = new Set<string>();
    const perWriter = Array.from({ length: WRITERS }, () => 0);
    let stop = false;
    const writer = async (index: number): Promise<void> => {
      for (let n = 0; !stop; n += 1) {
        const name = `w${index}-${n}`;
        attempted.add(name);
        await as(original, owner, 'post', '/api/v1/entities')
          .send({ name, quantity: 2 })
          .expect(201);
        acknowledged.add(name);
        perWriter[index] = n + 1;
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, index) => writer(index));
    // Every writer has had writes acknowledged before the backup starts.
    while (perWriter.some((count) => count < 3)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const before = new Set(acknowledged);
    const archive = path.join(work, 'backup.tar.gz');
    let manifest;
    try {
      ({ manifest } = await writeInstanceBackupFile(
        {
          databaseUrl: original.database.url,
          storage: new LocalDiskStorage(path.join(original.config.dataDir, 'attachments')),
          troveVersion: original.config.build.version,
        },
        archive,
      ));
    } finally {
      stop = true;
      await Promise.all(writers);
    }

    const database = await createTestDatabase({ empty: true });
    const dataDir = await mkdtemp(path.join(work, 'data-'));
    try {
      await restoreInstanceBackup(archive, {
        databaseUrl: database.url,
        storage: new LocalDiskStorage(path.join(dataDir, 'attachments')),
      });
      const restored = await createTestApp({}, { database, dataDir });
      try {
        const names = (
          await restored.query<{ name: string }>(`SELECT name FROM entities WHERE name LIKE 'w%'`)
        ).map((row) => row.name);
        const restoredNames = new Set(names);
        expect(names).toHaveLength(restoredNames.size);
        const [all] = await restored.query<{ count: number }>(
          'SELECT count(*)::int AS count FROM entities',
        );
        expect(manifest.tables.entities).toBe(all.count);
        for (const name of before) expect(restoredNames.has(name), name).toBe(true);
        for (const name of restoredNames) expect(attempted.has(name), name).toBe(true);
        // Each writer's writes are a prefix of what it wrote: none after one that is missing.
        for (let index = 0; index < WRITERS; index += 1) {
          const mine = names.filter((name) => name.startsWith(`w${index}-`));
          const numbers = mine.map((name) => Number(name.split('-')[1])).sort((a, b) => a - b);
          expect(numbers).toEqual(numbers.map((_, position) => position));
        }
        // The derived statistics agree with the rows: no write is there in part.
        const statistics = (
          await as(restored, owner, 'get', '/api/v1/groups/statistics').expect(200)
        ).body as Statistics;
        expect(statistics.totalItems).toBe(names.length);
      } finally {
        await restored.close();
      }
    } finally {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
