// Runs SCIM Verify (limosa-io/scimverify, a SCIM 2.0 compliance checker on node:test) against
// Trove's `/scim/v2`. Its sources are not part of this repository; see docs/accounts.md.
//
//   npm run scim:compliance -- [<checker dir>]
//
// SCIM_CHECKER_DIR (or the first argument) is the checker's directory (default
// ../checkers/scimverify next to this repository). With SCIM_BASE_URL and SCIM_TOKEN set, it
// checks that server; otherwise it builds Trove, starts it on a free port with SCIM on, on a
// fresh database of the PostgreSQL at SCIM_PG_URL (default postgres://postgres@127.0.0.1:5432),
// and drops that database afterwards.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const checkerDir = path.resolve(
  process.argv[2] ??
    process.env.SCIM_CHECKER_DIR ??
    path.join(root, '..', 'checkers', 'scimverify'),
);

function fail(message) {
  console.error(message);
  process.exit(2);
}

if (!existsSync(path.join(checkerDir, 'scim.test.js'))) {
  fail(
    [
      `No SCIM Verify sources at ${checkerDir}.`,
      'Get them (https://github.com/limosa-io/scimverify) and point SCIM_CHECKER_DIR at them:',
      `  git clone https://github.com/limosa-io/scimverify ${checkerDir}`,
      `  SCIM_CHECKER_DIR=${checkerDir} npm run scim:compliance`,
    ].join('\n'),
  );
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed in ${cwd}`);
}

// The checker's only dependencies are axios and dotenv, from the npm registry.
if (!existsSync(path.join(checkerDir, 'node_modules', 'axios'))) {
  run('npm', ['ci', '--no-audit', '--no-fund'], checkerDir);
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url, child) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Trove exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`Trove did not answer at ${url} within 60 s`);
}

async function startTrove() {
  const adminUrl = process.env.SCIM_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
  const databaseName = `trove_scim_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${adminUrl}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-scim-'));
  run('npm', ['run', 'build'], root);
  const port = await freePort();
  const token = randomBytes(24).toString('hex');
  const child = spawn(process.execPath, [path.join(root, 'dist', 'main.js')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: `${adminUrl}/${databaseName}`,
      TROVE_DATA_DIR: dataDir,
      TROVE_WEB_PORT: String(port),
      TROVE_WEB_HOST: '127.0.0.1',
      TROVE_SCIM_TOKEN: token,
      TROVE_OIDC_SHARED_GROUP: 'SCIM compliance',
      TROVE_LOG_LEVEL: 'warn',
      TROVE_BARCODE_UPCITEMDB_URL: '',
      TROVE_BARCODE_OPENFOODFACTS_URL: '',
    },
  });
  const baseUrl = `http://127.0.0.1:${port}/scim/v2`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
    const cleanup = new pg.Client({ connectionString: `${adminUrl}/postgres` });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await cleanup.end();
  };
  try {
    await waitForServer(`${baseUrl}/ServiceProviderConfig`, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, token, stop };
}

const given = process.env.SCIM_BASE_URL && process.env.SCIM_TOKEN;
const server = given
  ? { baseUrl: process.env.SCIM_BASE_URL, token: process.env.SCIM_TOKEN, stop: async () => {} }
  : await startTrove();

console.log(`Checking ${server.baseUrl} with ${checkerDir}`);
// The checker's own entry point: node:test with the spec reporter, a summary of passed and
// failed tests at the end.
const checker = spawn(process.execPath, ['index.js'], {
  cwd: checkerDir,
  stdio: 'inherit',
  env: { ...process.env, BASE_URL: server.baseUrl, TOKEN: server.token },
});
const code = await new Promise((resolve) => checker.once('exit', (status) => resolve(status ?? 1)));
await server.stop();
process.exit(code);
