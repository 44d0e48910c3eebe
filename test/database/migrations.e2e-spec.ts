import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '../../src/platform/database/data-source-options.js';
import { runMigrations } from '../../src/platform/database/migrate.js';
import { MIGRATIONS } from '../../src/platform/database/migrations/index.js';
import { RECORDS } from '../../src/records.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const tablesOf = async (dataSource: DataSource): Promise<string[]> => {
  const rows: { table_name: string }[] = await dataSource.query(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
};

describe('migrations', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    dataSource = await new DataSource(
      buildDataSourceOptions(database.url, 2, undefined, RECORDS),
    ).initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('build the whole stored schema on an empty database, leaving nothing for the schema builder', async () => {
    const applied = await runMigrations(dataSource);
    expect(applied.map((migration) => migration.name)).toEqual(
      MIGRATIONS.map((migration) => new migration().name),
    );
    expect(await tablesOf(dataSource)).toEqual([
      'api_keys',
      'attachments',
      'auth_roles',
      'auth_tokens',
      'checkouts',
      'entities',
      'entity_child_items',
      'entity_child_values',
      'entity_counts',
      'entity_fields',
      'entity_history',
      'entity_stock',
      'entity_tags',
      'entity_templates',
      'entity_types',
      'group_exports',
      'group_invitation_tokens',
      'group_memberships',
      'groups',
      'idempotency_keys',
      'instance_backups',
      'location_versions',
      'login_attempts',
      'maintenance_entries',
      'migrations',
      'notifiers',
      'oidc_logout_tokens',
      'password_resets',
      'reminder_runs',
      'scim_group_members',
      'scim_groups',
      'scim_identities',
      'server_secrets',
      'stock_adjustments',
      'stock_alerts',
      'tag_match_counts',
      'tag_matches',
      'tag_values',
      'tags',
      'template_fields',
      'users',
      'warranty_announcements',
    ]);

    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('index every foreign key column', async () => {
    const unindexed: { table_name: string; column_name: string }[] = await dataSource.query(`
      SELECT c.conrelid::regclass::text AS table_name, a.attname AS column_name
      FROM pg_constraint c
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
      WHERE c.contype = 'f'
        AND NOT EXISTS (
          SELECT 1 FROM pg_index i
          WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1]
        )`);
    expect(unindexed).toEqual([]);
  });

  it('do nothing when run again', async () => {
    expect(await runMigrations(dataSource)).toEqual([]);
  });

  it('revert to an empty database', async () => {
    for (let i = 0; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration();
    expect(await tablesOf(dataSource)).toEqual(['migrations']);
  });
});

describe('migrations started by several instances at once', () => {
  let database: TestDatabase;
  const dataSources: DataSource[] = [];

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    for (let i = 0; i < 3; i++) {
      dataSources.push(
        await new DataSource(
          buildDataSourceOptions(database.url, 2, undefined, RECORDS),
        ).initialize(),
      );
    }
  });
  afterAll(async () => {
    await Promise.all(dataSources.map((dataSource) => dataSource.destroy()));
    await database.drop();
  });

  it('apply each migration exactly once', async () => {
    const results = await Promise.all(dataSources.map((dataSource) => runMigrations(dataSource)));
    const applied = results.flat().map((migration) => migration.name);
    expect(applied).toEqual(MIGRATIONS.map((migration) => new migration().name));
    const rows: { name: string }[] = await dataSources[0].query('SELECT name FROM migrations');
    expect(rows).toHaveLength(MIGRATIONS.length);
  });
});

describe('the migration that marks the OIDC shared group on the group itself', () => {
  const key = 'a'.repeat(40);
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    dataSource = await new DataSource(
      buildDataSourceOptions(database.url, 2, undefined, RECORDS),
    ).initialize();
    await runMigrations(dataSource);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  const pointers = (): Promise<{ name: string; value: string }[]> =>
    dataSource.query(
      `SELECT name, convert_from(value, 'UTF8') AS value FROM server_secrets
       WHERE name LIKE 'oidc-shared-group:%'`,
    );

  it('moves a marker kept among the server secrets to the group, and back when reverted', async () => {
    const position = MIGRATIONS.findIndex(
      (migration) => new migration().name === 'AddGroupOidcSharedKey1795219500000',
    );
    expect(position).toBeGreaterThan(0);
    const [group] = await dataSource.query<{ id: string }[]>(
      `INSERT INTO groups (name) VALUES ('Staff') RETURNING id`,
    );
    await dataSource.query('UPDATE groups SET oidc_shared_key = $1 WHERE id = $2', [key, group.id]);

    for (let i = position; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration();
    expect(await pointers()).toEqual([{ name: `oidc-shared-group:${key}`, value: group.id }]);

    await runMigrations(dataSource);
    expect(await pointers()).toEqual([]);
    expect(
      await dataSource.query(
        'SELECT id, oidc_shared_key FROM groups WHERE oidc_shared_key IS NOT NULL',
      ),
    ).toEqual([{ id: group.id, oidc_shared_key: key }]);
  });
});

describe('the migration that pairs each attachment token with its session', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    dataSource = await new DataSource(
      buildDataSourceOptions(database.url, 2, undefined, RECORDS),
    ).initialize();
    await runMigrations(dataSource);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  /** Stores a token of `role` as the sign-in of its time did: in one transaction with its pair. */
  const token = async (
    userId: string,
    role: 'user' | 'attachments',
    createdAt: string,
  ): Promise<string> => {
    const [{ id }] = await dataSource.query<{ id: string }[]>(
      `INSERT INTO auth_tokens (user_id, token_hash, expires_at, created_at)
       VALUES ($1, decode(md5(random()::text), 'hex'), $2::timestamptz + interval '7 days', $2) RETURNING id`,
      [userId, createdAt],
    );
    await dataSource.query('INSERT INTO auth_roles (token_id, role) VALUES ($1, $2)', [id, role]);
    return id;
  };

  it('pairs the tokens of one sign-in and deletes attachment tokens whose session has ended', async () => {
    const position = MIGRATIONS.findIndex(
      (migration) => new migration().name === 'PairAttachmentTokensWithSessions1795221540000',
    );
    expect(position).toBeGreaterThan(0);
    for (let i = position; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration();
    const [user] = await dataSource.query<{ id: string }[]>(
      `INSERT INTO users (name, email) VALUES ('Ada', 'ada@example.com') RETURNING id`,
    );
    const first = '2026-11-01T10:00:00Z';
    const second = '2026-11-02T10:00:00Z';
    const session = await token(user.id, 'user', first);
    const attachment = await token(user.id, 'attachments', first);
    // The session of this one was logged out before.
    const orphan = await token(user.id, 'attachments', second);

    await runMigrations(dataSource);

    expect(
      await dataSource.query(
        'SELECT id, session_id FROM auth_tokens WHERE user_id = $1 ORDER BY session_id NULLS FIRST',
        [user.id],
      ),
    ).toEqual([
      { id: session, session_id: null },
      { id: attachment, session_id: session },
    ]);
    expect(await dataSource.query('SELECT id FROM auth_tokens WHERE id = $1', [orphan])).toEqual(
      [],
    );
    await dataSource.query('DELETE FROM auth_tokens WHERE id = $1', [session]);
    expect(
      await dataSource.query('SELECT id FROM auth_tokens WHERE user_id = $1', [user.id]),
    ).toEqual([]);
  });
});
