import pg from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { applyConnectionSettings } from './connection-settings.js';
import { watchPoolClient } from './database-availability.js';
import { MIGRATIONS } from './migrations/index.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

/** `date` columns stay `YYYY-MM-DD` strings; pg's default makes local-midnight Dates. */
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

/**
 * The one options builder used by the app, the migration command and the tests. `poolWaitMs`
 * bounds the wait for a free connection; past it the request fails as database-unavailable (503).
 * `records` are the persistence classes to map, passed down by the app (`src/records.ts`), which
 * sits above every module that owns one; migrations need none.
 */
export function buildDataSourceOptions(
  url: string,
  poolSize = 10,
  poolWaitMs = 10_000,
  records: NonNullable<DataSourceOptions['entities']> = [],
): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: records,
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
      onConnect: async (client: pg.PoolClient) => {
        watchPoolClient(client);
        await applyConnectionSettings(client);
      },
    },
  };
}
