import pg from 'pg';
import type { TroveConfig } from '../config/configuration.js';
import { EmbeddedPostgres } from './embedded-postgres.js';

/** The PostgreSQL Trove talks to: an external one, or the embedded server it started. */
export interface DatabaseServer {
  /** Connection URL of Trove's database. */
  readonly url: string;
  readonly embedded: boolean;
  /** Stops the embedded server; does nothing for an external one. */
  stop(): Promise<void>;
}

const EMBEDDED_DATABASE = 'trove';

export async function startDatabaseServer(
  config: TroveConfig,
  log: (message: string) => void,
): Promise<DatabaseServer> {
  if (config.database.url) {
    return { url: config.database.url, embedded: false, stop: () => Promise.resolve() };
  }
  const server = await EmbeddedPostgres.start({
    dataDir: config.dataDir,
    port: config.database.embeddedPort,
    log,
  });
  try {
    await createDatabaseIfMissing(server.url, EMBEDDED_DATABASE);
  } catch (error) {
    await server.stop();
    throw error;
  }
  const url = new URL(server.url);
  url.pathname = `/${EMBEDDED_DATABASE}`;
  return { url: url.toString(), embedded: true, stop: () => server.stop() };
}

/** Creates a database on the server of `adminUrl` unless it exists. */
export async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0)
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}
