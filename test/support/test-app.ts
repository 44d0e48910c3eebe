import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pg from 'pg';
import supertest from 'supertest';
import { createApp } from '../../src/app.factory.js';
import { createLogger } from '../../src/platform/logging/logger.js';
import { loadConfig, type TroveConfig } from '../../src/platform/config/configuration.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface TestApp {
  readonly app: NestExpressApplication;
  readonly config: TroveConfig;
  readonly database: TestDatabase;
  /** `http://127.0.0.1:<port>` of the listening app. */
  readonly baseUrl: string;
  /** supertest bound to the real listening port. */
  readonly http: ReturnType<typeof supertest>;
  /** Runs SQL on the app's database (to check what was stored, or to age a row). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** What a test app may share with other instances of Trove instead of owning it. */
export interface SharedResources {
  /** A database the caller created (and drops): several instances on one database. */
  database?: TestDatabase;
  /** A data directory the caller created (and removes): the stored files those instances share. */
  dataDir?: string;
}

/**
 * Boots the real application (the same `createApp` as `main.ts`) on a random port, with a
 * fresh database that the app migrates at start-up. `env` overrides configuration variables.
 * With `shared`, it runs on the caller's database and data directory, and `close` leaves them.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  shared: SharedResources = {},
): Promise<TestApp> {
  const database = shared.database ?? (await createTestDatabase());
  const dataDir = shared.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'trove-test-')));
  // What this call made (database, data directory) goes again whatever stops the app: settings
  // it refuses, a start that fails or a close that throws.
  const release = async (): Promise<void> => {
    try {
      if (!shared.database) await database.drop();
    } finally {
      if (!shared.dataDir) await rm(dataDir, { recursive: true, force: true });
    }
  };
  let config: TroveConfig;
  let app: NestExpressApplication | undefined;
  try {
    config = loadConfig({
      TROVE_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      TROVE_DATA_DIR: dataDir,
      TROVE_DATABASE_POOL_SIZE: '4',
      TROVE_JOBS_POLL_INTERVAL: '1',
      // Tests never reach real barcode providers; the ones that need providers start stand-ins.
      TROVE_BARCODE_UPCITEMDB_URL: '',
      TROVE_BARCODE_OPENFOODFACTS_URL: '',
      ...env,
    });
    app = await createApp(config, database.url, createLogger(config.log));
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await app?.close().catch(() => undefined);
    await release();
    throw error;
  }
  const started = app;
  const address = started.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    app: started,
    config,
    database,
    baseUrl,
    http: supertest(baseUrl),
    query: async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as T[];
      } finally {
        await client.end();
      }
    },
    close: async () => {
      try {
        await started.close();
      } finally {
        await release();
      }
    },
  };
}

/** Another instance of the app on the same database, as a second server would run it. */
export interface SecondInstance {
  readonly app: NestExpressApplication;
  readonly baseUrl: string;
  /** supertest bound to its port. */
  readonly http: ReturnType<typeof supertest>;
}

/** Starts a second instance of the app of `trove` on its database and configuration. */
export async function secondInstance(trove: TestApp): Promise<SecondInstance> {
  const app = await createApp(trove.config, trove.database.url, createLogger(trove.config.log));
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return { app, baseUrl, http: supertest(baseUrl) };
}
