import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EmbeddedPostgres,
  loadBinaries,
  sharedBuffersMiB,
} from '../../src/platform/database/embedded-postgres.js';

const serverProcesses = (dataDir: string): string[] => {
  const output = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return output.split('\n').filter((line) => line.includes(`-D ${dataDir}/postgres`));
};

const query = async (url: string, sql: string): Promise<unknown[]> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as unknown[];
  } finally {
    await client.end();
  }
};

describe('embedded PostgreSQL', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-embedded-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('initialises a cluster, keeps its data across restarts, and leaves no process behind', async () => {
    const first = await EmbeddedPostgres.start({ dataDir, port: 0, log: () => undefined });
    expect(existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
    await query(first.url, 'CREATE TABLE kept (value text)');
    await query(first.url, "INSERT INTO kept VALUES ('still here')");
    const [{ server_version_num }] = (await query(first.url, 'SHOW server_version_num')) as {
      server_version_num: string;
    }[];
    expect(Number(server_version_num)).toBeGreaterThanOrEqual(130000);
    await first.stop();
    expect(serverProcesses(dataDir)).toEqual([]);

    const second = await EmbeddedPostgres.start({ dataDir, port: 0, log: () => undefined });
    expect(await query(second.url, 'SELECT value FROM kept')).toEqual([{ value: 'still here' }]);
    await second.stop();
    expect(serverProcesses(dataDir)).toEqual([]);
  });

  it('sizes its shared buffers after the memory there is', async () => {
    const server = await EmbeddedPostgres.start({ dataDir, port: 0, log: () => undefined });
    try {
      const buffers = `SELECT (setting::bigint * current_setting('block_size')::int / 1048576)::int AS mib
                       FROM pg_settings WHERE name = 'shared_buffers'`;
      expect(await query(server.url, buffers)).toEqual([{ mib: sharedBuffersMiB() }]);
    } finally {
      await server.stop();
    }
    const GiB = 2 ** 30;
    // An eighth of the memory, of the container's limit where it is lower, within 128 MiB..1 GiB.
    expect(sharedBuffersMiB(4 * GiB, undefined)).toBe(512);
    expect(sharedBuffersMiB(64 * GiB, 2 * GiB)).toBe(256);
    expect(sharedBuffersMiB(64 * GiB, 2 ** 64)).toBe(1024);
    expect(sharedBuffersMiB(64 * GiB, 0)).toBe(1024);
    expect(sharedBuffersMiB(GiB / 2, undefined)).toBe(128);
  });

  it('lowers and matches non-ASCII text case-insensitively', async () => {
    const server = await EmbeddedPostgres.start({ dataDir, port: 0, log: () => undefined });
    try {
      expect(
        await query(server.url, "SELECT lower('ÄRGER Ş') AS v, 'Über' ILIKE 'über' AS m"),
      ).toEqual([{ v: 'ärger ş', m: true }]);
    } finally {
      await server.stop();
    }
  });

  // It copies the server's binaries and initialises a cluster: long on a busy machine.
  it('runs from binaries and a data directory inside a directory only its owner may enter', async () => {
    // As a clone under /root or `mktemp -d` is: as root, the server must still reach both.
    const closed = await mkdtemp(path.join(os.tmpdir(), 'trove-closed-'));
    try {
      expect((await stat(closed)).mode & 0o777).toBe(0o700);
      const installed = await loadBinaries();
      const nativeDir = path.resolve(path.dirname(installed.postgres), '..');
      const copy = path.join(closed, 'node_modules', 'native');
      await cp(nativeDir, copy, { recursive: true, verbatimSymlinks: true });
      const binaries = {
        initdb: path.join(copy, path.relative(nativeDir, installed.initdb)),
        postgres: path.join(copy, path.relative(nativeDir, installed.postgres)),
      };
      const closedDataDir = path.join(closed, 'data');
      const server = await EmbeddedPostgres.start({
        dataDir: closedDataDir,
        port: 0,
        log: () => undefined,
        binaries,
      });
      try {
        expect(await query(server.url, 'SELECT 41 + 1 AS answer')).toEqual([{ answer: 42 }]);
        expect(serverProcesses(closedDataDir)).toHaveLength(1);
        expect(serverProcesses(closedDataDir)[0]).toContain(copy);
      } finally {
        await server.stop();
      }
      expect(serverProcesses(closedDataDir)).toEqual([]);
    } finally {
      await rm(closed, { recursive: true, force: true });
    }
  }, 90_000);
});
