import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_LOGIC, MAINTAINED_TABLES } from '../../src/database-logic.js';
import { triggersOf } from '../../src/platform/database/schema/database-logic.js';
import { SCHEMA_DEFINITIONS } from '../../src/platform/database/schema/schema-catalog.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** Every definition the catalog holds of the maintained tables and the schema's logic, by kind. */
async function readCatalog(client: pg.Client): Promise<Record<string, string[]>> {
  const catalog: Record<string, string[]> = {};
  for (const [kind, sql] of Object.entries(SCHEMA_DEFINITIONS)) {
    const params = sql.includes('$1') ? [[...MAINTAINED_TABLES]] : [];
    const { rows } = await client.query<{ definition: string }>(sql, params);
    catalog[kind] = rows.map((row) => row.definition.trim());
  }
  return catalog;
}

describe("the database's own logic as the modules define it", () => {
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

  it('creates exactly what the migrations made: the same tables, functions and triggers', async () => {
    const migrated = await readCatalog(client);
    expect(migrated.functions.length).toBeGreaterThan(0);
    await client.query('BEGIN');
    try {
      // Everything the definitions create goes first, then they create it again.
      await client.query(`DROP TABLE ${MAINTAINED_TABLES.join(', ')} CASCADE`);
      const { rows: functions } = await client.query<{ signature: string }>(
        `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
         JOIN pg_namespace n ON n.oid = p.pronamespace AND n.nspname = 'public'
         WHERE NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
      );
      for (const { signature } of functions) {
        await client.query(`DROP FUNCTION IF EXISTS ${signature} CASCADE`);
      }
      const emptied = await readCatalog(client);
      expect(emptied.functions).toEqual([]);
      expect(emptied.triggers).toEqual([]);
      expect(emptied.tables).toEqual([]);

      for (const logic of DATABASE_LOGIC) {
        for (const statement of logic.statements) await client.query(statement);
      }
      expect(await readCatalog(client)).toEqual(migrated);
    } finally {
      await client.query('ROLLBACK');
    }
  });

  it('defines each maintained table, function and trigger once', () => {
    const tables = DATABASE_LOGIC.flatMap((logic) => logic.tables);
    expect(new Set(tables).size).toBe(tables.length);
    const created = DATABASE_LOGIC.flatMap((logic) =>
      logic.statements.map(
        (statement) =>
          /^CREATE (?:OR REPLACE )?(?:TABLE|FUNCTION|TRIGGER|INDEX) (\S+?)[\s(]/.exec(
            statement,
          )![1],
      ),
    );
    expect(new Set(created).size).toBe(created.length);
  });

  it('keeps each trigger beside the function it runs', () => {
    for (const logic of DATABASE_LOGIC) {
      const functions = logic.statements.flatMap(
        (statement) => /^CREATE OR REPLACE FUNCTION public\.(\w+)\(/.exec(statement)?.[1] ?? [],
      );
      const run = logic.statements.flatMap(
        (statement) => /^CREATE TRIGGER .* EXECUTE FUNCTION (\w+)\(/s.exec(statement)?.[1] ?? [],
      );
      expect(run.length).toBe(triggersOf(logic).length);
      expect(run.filter((name) => !functions.includes(name))).toEqual([]);
    }
  });
});
