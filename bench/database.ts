import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applyConnectionSettings } from '../src/platform/database/connection-settings.js';
import type { EmbeddedServer, TroveBuild } from './trove.js';

/** A database of its own for one benchmark run, on the server of DATABASE_URL or an embedded one. */
export interface BenchDatabase {
  kind: 'embedded' | 'external';
  name: string;
  /** URL of the benchmark's database. */
  url: string;
  /** Drops the database and, for the embedded server, stops it and removes its directory. */
  dispose(): Promise<void>;
}

/**
 * A pool of `max` connections to `url` set as Trove's are (prepared statements run generic
 * plans): the pool waits for a new connection's `onConnect` when it returns a promise.
 */
export function connectionPool(url: string, max: number): pg.Pool {
  const config: Omit<pg.PoolConfig, 'onConnect'> & {
    onConnect: (client: pg.ClientBase) => Promise<void>;
  } = { connectionString: url, max, onConnect: applyConnectionSettings };
  return new pg.Pool(config);
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createBenchDatabase(
  trove: TroveBuild,
  externalUrl: string | undefined,
  log: (message: string) => void,
): Promise<BenchDatabase> {
  const name = `trove_bench_${Date.now()}`;
  if (externalUrl) {
    await adminQuery(externalUrl, `CREATE DATABASE "${name}"`);
    return {
      kind: 'external',
      name,
      url: databaseUrl(externalUrl, name),
      dispose: () => adminQuery(externalUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    };
  }
  // A directory of its own (mkdtemp is 0700; as root the server's user must own this very one).
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-bench-pg-'));
  let server: EmbeddedServer | undefined;
  try {
    server = await trove.EmbeddedPostgres.start({ dataDir, port: 0, log });
    await adminQuery(server.url, `CREATE DATABASE "${name}"`);
  } catch (error) {
    await server?.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const embedded = server;
  return {
    kind: 'embedded',
    name,
    url: databaseUrl(embedded.url, name),
    dispose: async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
