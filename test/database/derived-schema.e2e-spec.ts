import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAINTAINED_TABLES } from '../../src/database-logic.js';
import { SCHEMA_DEFINITIONS } from '../../src/platform/database/schema/schema-catalog.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const SNAPSHOT = '../../src/platform/database/schema/schema.snapshot.sql';

describe('the maintained tables and every trigger and function of the schema', () => {
  let database: TestDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await database.drop();
  });

  it('are defined in the migrated database as the committed snapshot shows them', async () => {
    const sections: string[] = [];
    for (const [kind, sql] of Object.entries(SCHEMA_DEFINITIONS)) {
      const params = sql.includes('$1') ? [[...MAINTAINED_TABLES]] : [];
      const { rows } = await client.query<{ name: string; definition: string }>(sql, params);
      expect(rows.length, `no ${kind} found`).toBeGreaterThan(0);
      sections.push(`-- ${kind}\n\n${rows.map((row) => `${row.definition.trim()};`).join('\n\n')}`);
    }
    const tables = (
      await client.query<{ name: string }>(SCHEMA_DEFINITIONS.tables, [[...MAINTAINED_TABLES]])
    ).rows.map((row) => row.name);
    expect(tables).toEqual([...MAINTAINED_TABLES].sort());
    await expect(`${sections.join('\n\n')}\n`).toMatchFileSnapshot(SNAPSHOT);
  });
});
