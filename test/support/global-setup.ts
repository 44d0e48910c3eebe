import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DataSource } from 'typeorm';
import type { TestProject } from 'vitest/node';
import { buildDataSourceOptions } from '../../src/platform/database/data-source-options.js';
import { EmbeddedPostgres } from '../../src/platform/database/embedded-postgres.js';
import { runMigrations } from '../../src/platform/database/migrate.js';
import { installJobQueue } from '../../src/platform/jobs/job-queue-schema.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser URL of the PostgreSQL server the tests create their databases on. */
    databaseAdminUrl: string;
    /** A database on that server with every migration applied, to clone test databases from. */
    templateDatabase: string;
  }
}

const databaseUrl = (serverUrl: string, name: string): string => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * One PostgreSQL server for the whole run: the one `DATABASE_URL` points at, or else a fresh
 * embedded server in a directory of its own under the system's temporary directory (so
 * concurrent runs never share one). On it, one template database is migrated once; every test
 * file clones its own databases from it (the migration tests start from empty ones).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let serverUrl = process.env.DATABASE_URL;
  let stopServer = (): Promise<void> => Promise.resolve();
  if (!serverUrl) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-test-db-'));
    const server = await EmbeddedPostgres.start({ dataDir, port: 0, log: () => undefined });
    serverUrl = server.url;
    stopServer = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  const template = `trove_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${template}"`);
  const dataSource = await new DataSource({
    ...buildDataSourceOptions(databaseUrl(serverUrl, template), 1),
    // Two: one connection holds the migration lock while the other migrates.
    extra: { max: 2, connectionTimeoutMillis: 60_000 },
  }).initialize();
  await runMigrations(dataSource);
  await dataSource.destroy();
  await installJobQueue(databaseUrl(serverUrl, template));

  project.provide('databaseAdminUrl', serverUrl);
  project.provide('templateDatabase', template);
  const adminUrl = serverUrl;
  return async () => {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`).catch(
      () => undefined,
    );
    await stopServer();
  };
}
