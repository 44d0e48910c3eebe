import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/platform/config/configuration.js';
import {
  createDatabaseIfMissing,
  startDatabaseServer,
  type DatabaseServer,
  type SupervisionOptions,
} from '../../src/platform/database/database-server.js';
import { EmbeddedPostgres } from '../../src/platform/database/embedded-postgres.js';
import { PostgresProxy } from './postgres-proxy.js';
import type { TestApp } from './test-app.js';

/** One line the app logged: pino's JSON fields. */
export interface LogLine {
  level: number;
  msg: string;
  context?: string;
  trace?: string;
  [field: string]: unknown;
}

/** pino's numeric levels. */
export const LOG_LEVEL = { info: 30, warn: 40, error: 50, fatal: 60 } as const;

/** The warning logged when an outage is first seen. */
export const outageWarnings = (lines: LogLine[]): LogLine[] =>
  lines.filter(
    (line) => line.level === LOG_LEVEL.warn && line.msg.startsWith('database unavailable'),
  );

/** The line logged when the database answers again after an outage. */
export const recoveries = (lines: LogLine[]): LogLine[] =>
  lines.filter(
    (line) => line.level === LOG_LEVEL.info && line.msg.startsWith('database reachable again'),
  );

/** A Trove whose PostgreSQL server belongs to this test alone, so the test may take it away. */
export interface OwnServerApp extends TestApp {
  /** The app's logger. */
  readonly logger: Logger;
  /** Everything the app logged at info or above. */
  readonly logLines: LogLine[];
}

/** An app on an external-style server: a PostgreSQL of its own that the test stops and starts. */
export interface ExternalServerApp extends OwnServerApp {
  /** The proxy between the app and the server, when asked for one. */
  readonly proxy?: PostgresProxy;
  /** Stops the PostgreSQL server (a fast shutdown, as an administrator would). */
  stopServer(): Promise<void>;
  /** Starts it again on the same port and data directory. */
  startServer(): Promise<void>;
}

/** An app on the embedded server that Trove starts and supervises itself. */
export interface EmbeddedServerApp extends OwnServerApp {
  readonly server: DatabaseServer;
}

const memoryLogger = (): { logger: Logger; lines: LogLine[] } => {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
};

const baseEnv = (dataDir: string): Record<string, string> => ({
  TROVE_LOG_LEVEL: 'info',
  TROVE_DATA_DIR: dataDir,
  TROVE_DATABASE_POOL_SIZE: '4',
  TROVE_BARCODE_UPCITEMDB_URL: '',
  TROVE_BARCODE_OPENFOODFACTS_URL: '',
});

async function listen(
  app: Awaited<ReturnType<typeof createApp>>,
): Promise<{ baseUrl: string; http: ReturnType<typeof supertest> }> {
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return { baseUrl, http: supertest(baseUrl) };
}

const queryOn =
  (url: string) =>
  async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };

/**
 * Trove pointed at a PostgreSQL as if it were external (`DATABASE_URL`): the server is an
 * `EmbeddedPostgres` in a temporary directory that the test controls, not one Trove supervises.
 * With `proxied`, Trove reaches it through a `PostgresProxy` the test controls too.
 */
export async function createAppOnExternalServer(
  options: { proxied?: boolean } = {},
): Promise<ExternalServerApp> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'trove-external-'));
  // Its own temporary directory: as root the server runs as `postgres`, which cannot enter `dir`.
  const serverDir = await mkdtemp(path.join(os.tmpdir(), 'trove-external-server-'));
  let server = await EmbeddedPostgres.start({ dataDir: serverDir, port: 0, log: () => undefined });
  const port = server.port;
  await createDatabaseIfMissing(server.url, 'trove');
  const url = new URL(server.url);
  url.pathname = '/trove';
  const proxy = options.proxied
    ? await PostgresProxy.start({ host: url.hostname, port })
    : undefined;
  const appUrl = proxy ? proxy.urlFor(url.toString()) : url.toString();
  const config = loadConfig({
    ...baseEnv(path.join(dir, 'trove')),
    DATABASE_URL: appUrl,
  });
  const { logger, lines } = memoryLogger();
  const app = await createApp(config, appUrl, logger);
  const { baseUrl, http } = await listen(app);
  return {
    app,
    config,
    baseUrl,
    http,
    logger,
    logLines: lines,
    proxy,
    database: { name: 'trove', url: url.toString(), drop: () => Promise.resolve() },
    query: queryOn(url.toString()),
    stopServer: () => server.stop(),
    startServer: async () => {
      server = await EmbeddedPostgres.start({ dataDir: serverDir, port, log: () => undefined });
    },
    close: async () => {
      try {
        await app.close();
        await proxy?.close();
      } finally {
        await server.stop();
        await rm(dir, { recursive: true, force: true });
        await rm(serverDir, { recursive: true, force: true });
      }
    },
  };
}

/** Trove on its own embedded PostgreSQL, started and supervised as `main.ts` does. */
export async function createAppOnEmbeddedServer(
  supervision: SupervisionOptions = {},
): Promise<EmbeddedServerApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-embedded-app-'));
  const config = loadConfig(baseEnv(dataDir));
  const { logger, lines } = memoryLogger();
  const serverLog = logger.child({ component: 'embedded-postgres' });
  const server = await startDatabaseServer(config, () => undefined, {
    report: (level, message) => serverLog[level](message),
    ...supervision,
  });
  const app = await createApp(config, server.url, logger, server);
  const { baseUrl, http } = await listen(app);
  return {
    app,
    config,
    baseUrl,
    http,
    server,
    logger,
    logLines: lines,
    database: { name: 'trove', url: server.url, drop: () => Promise.resolve() },
    query: queryOn(server.url),
    close: async () => {
      try {
        await app.close();
      } finally {
        await server.stop();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
