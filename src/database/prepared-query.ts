import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/** Distinct texts a process prepares at most; PostgreSQL keeps each plan per connection. */
const MAX_PREPARED_TEXTS = 32;
/** Statement name by text. */
const names = new Map<string, string>();

/**
 * Runs a statement of fixed text on TypeORM's connection pool as a named (prepared) statement,
 * so PostgreSQL parses and plans it once per connection instead of on every call. For the
 * large view statements that is most of their cost. Only for statements whose plan does not
 * depend on the values (lookups by key): PostgreSQL may settle on one generic plan for them.
 * Past MAX_PREPARED_TEXTS distinct texts, statements run unnamed.
 */
export async function preparedQuery<T>(
  dataSource: DataSource,
  text: string,
  values: unknown[],
): Promise<T[]> {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_PREPARED_TEXTS) {
    name = `trove_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    names.set(text, name);
  }
  const pool = (dataSource.driver as PostgresDriver).master as pg.Pool;
  const result = await pool.query<T & pg.QueryResultRow>({ name, text, values });
  return result.rows;
}
