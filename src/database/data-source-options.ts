import pg from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { watchPoolClient } from './database-availability.js';
import { MIGRATIONS } from './migrations/index.js';
import { RECORDS } from './records.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

/** `date` columns stay `YYYY-MM-DD` strings; pg's default makes local-midnight Dates. */
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

/**
 * Settings of every connection of Trove's pool. Statements Trove prepares (`Database.prepared`:
 * fixed texts whose plan does not depend on the values) run with one generic plan per
 * connection, planned once, instead of being planned again for every call, which for the large
 * view statements costs more than running them; other statements are sent unnamed and planned
 * with their values, as always. No JIT compilation: no statement of Trove's runs long enough
 * to repay it.
 */
export const CONNECTION_SETTINGS = '-c plan_cache_mode=force_generic_plan -c jit=off';

/**
 * The one options builder used by the app, the migration command and the tests. `poolWaitMs`
 * bounds the wait for a free connection; past it the request fails as database-unavailable (503).
 */
export function buildDataSourceOptions(
  url: string,
  poolSize = 10,
  poolWaitMs = 10_000,
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: RECORDS,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    uuidExtension: 'pgcrypto',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: poolSize,
      connectionTimeoutMillis: poolWaitMs,
      onConnect: watchPoolClient,
      options: CONNECTION_SETTINGS,
    },
  };
}
