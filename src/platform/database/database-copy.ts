import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './data-source-options.js';
import { MIGRATIONS } from './migrations/index.js';
import { runMigrations } from './migrate.js';

/** The table where TypeORM records applied migrations; rebuilt by migrating, never copied. */
const MIGRATIONS_TABLE = 'migrations';

/** A sequence's position, so that a restored database hands out the same next values. */
export interface SequencePosition {
  name: string;
  lastValue: string;
}

/** The names of the migrations this Trove knows, oldest first. */
export function knownSchemaVersions(): string[] {
  return MIGRATIONS.map((migration) => migration.name);
}

const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * One read-only REPEATABLE READ transaction on its own connection: every table of Trove's
 * schema as it was at one moment, while writers go on. Tables are read one at a time with
 * `COPY ... TO STDOUT` in PostgreSQL's text format.
 */
export class DatabaseSnapshot {
  private constructor(
    private readonly client: pg.Client,
    /** The latest migration applied. */
    readonly schemaVersion: string,
    /** The tables of the public schema, but the migrations table, by name. */
    readonly tables: string[],
    readonly sequences: SequencePosition[],
  ) {}

  static async open(url: string): Promise<DatabaseSnapshot> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      // The snapshot is taken by the first query of the transaction.
      const version = await client.query<{ name: string }>(
        `SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY timestamp DESC, id DESC LIMIT 1`,
      );
      const tables = await client.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> $1
          ORDER BY table_name`,
        [MIGRATIONS_TABLE],
      );
      const sequences = await client.query<{ name: string; lastValue: string | null }>(
        `SELECT sequencename AS name, last_value::text AS "lastValue" FROM pg_sequences
          WHERE schemaname = 'public' ORDER BY sequencename`,
      );
      const schemaVersion = version.rows[0]?.name;
      if (!schemaVersion) throw new Error('the database has no migration applied');
      return new DatabaseSnapshot(
        client,
        schemaVersion,
        tables.rows.map((row) => row.name),
        sequences.rows
          .filter((row) => row.lastValue !== null)
          .map((row) => ({ name: row.name, lastValue: row.lastValue as string })),
      );
    } catch (error) {
      await client.end();
      throw error;
    }
  }

  /** The rows of a table as `COPY` text, one line a row. Read it to its end before the next. */
  copyOut(table: string): Readable {
    return this.client.query(copyTo(`COPY public.${quoted(table)} TO STDOUT`));
  }

  async close(): Promise<void> {
    try {
      await this.client.query('COMMIT');
    } finally {
      await this.client.end();
    }
  }
}

/** A database restore refused before anything was written to it. */
export class RestoreTargetRefused extends Error {}

/**
 * Loads a backup into an empty database: the schema by migrating up to the backup's version,
 * then every table in one transaction with triggers off (the derived tables are in the backup
 * as they were), then the sequences. On a failure the schema is emptied again.
 */
export class DatabaseLoad {
  private constructor(private readonly client: pg.Client) {}

  /** Connects, and refuses a database that already has a table of its own. */
  static async open(url: string): Promise<DatabaseLoad> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = await client.query<{ count: string }>(
        `SELECT count(*)::text AS count FROM information_schema.tables
          WHERE table_schema = 'public'`,
      );
      const count = Number(tables.rows[0]?.count ?? 0);
      if (count > 0) {
        throw new RestoreTargetRefused(
          `the target database is not empty (it has ${count} table(s)); restore into a new, empty database`,
        );
      }
      return new DatabaseLoad(client);
    } catch (error) {
      await client.end();
      throw error;
    }
  }

  /** Applies this Trove's migrations up to and including `schemaVersion`. */
  async migrateTo(url: string, schemaVersion: string): Promise<void> {
    const names = knownSchemaVersions();
    const last = names.indexOf(schemaVersion);
    if (last < 0) throw new Error(`unknown schema version ${schemaVersion}`);
    const dataSource = await new DataSource({
      ...buildDataSourceOptions(url, 2),
      migrations: MIGRATIONS.slice(0, last + 1),
    }).initialize();
    try {
      await runMigrations(dataSource);
    } finally {
      await dataSource.destroy();
    }
  }

  /** Opens the loading transaction; triggers and foreign keys wait until it is whole. */
  async begin(): Promise<void> {
    await this.client.query('BEGIN');
    await this.client.query('SET LOCAL session_replication_role = replica');
  }

  /** Empties a table the migrations filled (seed rows) so the backup's rows replace them. */
  async copyIn(table: string, rows: Readable): Promise<void> {
    await this.client.query(`DELETE FROM public.${quoted(table)}`);
    await pipeline(rows, this.client.query(copyFrom(`COPY public.${quoted(table)} FROM STDIN`)));
  }

  async setSequences(sequences: SequencePosition[]): Promise<void> {
    for (const sequence of sequences) {
      await this.client.query('SELECT setval($1::regclass, $2::bigint, true)', [
        `public.${quoted(sequence.name)}`,
        sequence.lastValue,
      ]);
    }
  }

  /** Rows per table, read inside the loading transaction. */
  async countRows(tables: string[]): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const result = await this.client.query<{ count: string }>(
        `SELECT count(*)::text AS count FROM public.${quoted(table)}`,
      );
      counts[table] = Number(result.rows[0]?.count ?? 0);
    }
    return counts;
  }

  async commit(): Promise<void> {
    await this.client.query('COMMIT');
  }

  /** Rolls back and drops what the migrations made, leaving the database empty again. */
  async abandon(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => undefined);
    await this.client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}

/** Creates a scratch database beside the one at `url` and returns its URL. */
export async function createScratchDatabase(url: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${quoted(name)}`);
  } finally {
    await client.end();
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return scratch.toString();
}

/** Drops a scratch database made by `createScratchDatabase`. */
export async function dropScratchDatabase(url: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
