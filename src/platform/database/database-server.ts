import pg from 'pg';
import type { Logger } from 'pino';
import type { TroveConfig } from '../config/configuration.js';
import { EmbeddedPostgres, type EmbeddedPostgresOptions } from './embedded-postgres.js';

/** The PostgreSQL Trove talks to: an external one, or the embedded server it started. */
export interface DatabaseServer {
  /** Connection URL of Trove's database. */
  readonly url: string;
  readonly embedded: boolean;
  /** Stops the embedded server; does nothing for an external one. */
  stop(): Promise<void>;
  /** Process id of the embedded server while it runs. */
  readonly pid: number | undefined;
  /** Why the embedded server is down for good (it exited and could not be restarted). */
  readonly failure: Error | undefined;
  /** Calls `listener` once the embedded server is down for good; never for an external one. */
  onFailure(listener: (error: Error) => void): void;
}

/** How the embedded server is supervised; the defaults suit production. */
export type SupervisionOptions = Pick<EmbeddedPostgresOptions, 'restartDelaysMs' | 'report'>;

/** Injection token of the app's `DatabaseServer`, when the app was given one. */
export const DATABASE_SERVER = 'DATABASE_SERVER';

/** Injection token of the connection URL of Trove's database (for whole-database copies). */
export const DATABASE_CONNECTION_URL = 'DATABASE_CONNECTION_URL';

const EMBEDDED_DATABASE = 'trove';

export async function startDatabaseServer(
  config: TroveConfig,
  log: (message: string) => void,
  supervision: SupervisionOptions = {},
): Promise<DatabaseServer> {
  if (config.database.url) {
    return {
      url: config.database.url,
      embedded: false,
      stop: () => Promise.resolve(),
      pid: undefined,
      failure: undefined,
      onFailure: () => undefined,
    };
  }
  const server = await EmbeddedPostgres.start({
    dataDir: config.dataDir,
    port: config.database.embeddedPort,
    log,
    ...supervision,
  });
  try {
    await createDatabaseIfMissing(server.url, EMBEDDED_DATABASE);
  } catch (error) {
    await server.stop();
    throw error;
  }
  const url = new URL(server.url);
  url.pathname = `/${EMBEDDED_DATABASE}`;
  return {
    url: url.toString(),
    embedded: true,
    stop: () => server.stop(),
    get pid() {
      return server.pid;
    },
    get failure() {
      return server.failure;
    },
    onFailure: (listener) => server.onFailure(listener),
  };
}

/** Exit status when the embedded server died and could not be restarted (EX_UNAVAILABLE). */
export const EXIT_DATABASE_LOST = 69;

/**
 * The embedded server is restarted when it dies; when even that fails, Trove cannot serve:
 * this ends the process with EXIT_DATABASE_LOST and a fatal log line that says why.
 */
export function exitWhenDatabaseLost(
  database: DatabaseServer,
  logger: Logger,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  database.onFailure((error) => {
    logger.fatal({ err: error }, 'the embedded PostgreSQL is down for good; Trove exits');
    logger.flush();
    exit(EXIT_DATABASE_LOST);
  });
}

/** Creates a database on the server of `adminUrl` unless it exists. */
export async function createDatabaseIfMissing(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  // A lost connection rejects the pending call; without a listener its `error` event would end Trove.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0)
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}
