import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/platform/database/database.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

describe('Database.query and Database.execute', () => {
  let trove: TestApp;
  let database: Database;

  beforeAll(async () => {
    trove = await createTestApp();
    database = trove.app.get(Database);
    await trove.query('CREATE TABLE rows_probe (n int PRIMARY KEY)');
  });
  afterAll(() => trove.close());

  it('answers every command with its rows, and execute with the rows it changed', async () => {
    const inserted = await database.query('INSERT INTO rows_probe VALUES (1), (2) RETURNING n');
    const updated = await database.query('UPDATE rows_probe SET n = n + 10 RETURNING n');
    const deleted = await database.query('DELETE FROM rows_probe WHERE n = $1 RETURNING n', [11]);
    const changed = await database.execute('UPDATE rows_probe SET n = n + 10');
    const gone = await database.execute('DELETE FROM rows_probe WHERE n = $1', [99]);

    expect(inserted).toEqual([{ n: 1 }, { n: 2 }]);
    expect(updated).toEqual([{ n: 11 }, { n: 12 }]);
    expect(deleted).toEqual([{ n: 11 }]);
    expect(changed).toBe(1);
    expect(gone).toBe(0);
    expect(await database.query('SELECT n FROM rows_probe')).toEqual([{ n: 22 }]);
  });

  it('joins the open unit of work: its write is undone when the work fails', async () => {
    await trove.query('DELETE FROM rows_probe');

    const failed = database.transaction(async () => {
      await database.query('INSERT INTO rows_probe VALUES (7) RETURNING n');
      expect(await database.query('SELECT n FROM rows_probe')).toEqual([{ n: 7 }]);
      throw new Error('the work fails');
    });

    await expect(failed).rejects.toThrow('the work fails');
    expect(await trove.query('SELECT n FROM rows_probe')).toEqual([]);
  });
});
