import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, '..', '..', 'scripts', 'web-ui.mjs');

/** `npm run web-ui` as the package script runs it, with only the given programs on PATH. */
function runScript(bin: string, env: Record<string, string>) {
  const result = spawnSync(process.execPath, [SCRIPT], {
    encoding: 'utf8',
    env: { PATH: bin, HOME: os.tmpdir(), ...env },
    timeout: 60_000,
  });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

describe('npm run web-ui when something is missing', () => {
  let base: string;
  /** A PATH with node and nothing else. */
  let nodeOnly: string;
  /** A PATH with node and a corepack that answers its version. */
  let withCorepack: string;
  let closedPort: number;
  let listener: Server;

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'trove-web-ui-script-'));
    nodeOnly = path.join(base, 'node-only');
    withCorepack = path.join(base, 'with-corepack');
    for (const dir of [nodeOnly, withCorepack]) {
      await mkdir(dir);
      await symlink(process.execPath, path.join(dir, 'node'));
    }
    await writeFile(path.join(withCorepack, 'corepack'), '#!/bin/sh\necho 0.34.0\n');
    await chmod(path.join(withCorepack, 'corepack'), 0o755);
    // A port that refuses connections: taken, then released.
    listener = createServer();
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    closedPort = (listener.address() as { port: number }).port;
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('names corepack and pnpm when neither is on PATH, before downloading anything', () => {
    const result = runScript(nodeOnly, {
      TROVE_WEB_UI_ARCHIVE_URL: `http://127.0.0.1:${closedPort}/homebox.tar.gz`,
    });
    expect(result.status).toBe(1);
    expect(result.stdout).not.toContain('downloading');
    expect(result.stderr).toContain('web-ui: neither corepack nor pnpm was found on PATH.');
    expect(result.stderr).toContain('npm install -g pnpm@10');
  });

  it('says the download failed and how to build from a local copy when offline', () => {
    const result = runScript(withCorepack, {
      TROVE_WEB_UI_ARCHIVE_URL: `http://127.0.0.1:${closedPort}/homebox.tar.gz`,
      TROVE_WEB_UI_OUT: path.join(base, 'out'),
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `web-ui: could not download Homebox v0.26.2 from http://127.0.0.1:${closedPort}/homebox.tar.gz`,
    );
    expect(result.stderr).toContain('set TROVE_WEB_UI_SOURCE to its path');
    expect(result.stderr).not.toContain('    at ');
  });

  it('says what is wrong with a TROVE_WEB_UI_SOURCE that holds no frontend', async () => {
    const missing = path.join(base, 'no-such-archive.tar.gz');
    const gone = runScript(withCorepack, { TROVE_WEB_UI_SOURCE: missing });
    expect(gone.status).toBe(1);
    expect(gone.stderr).toBe(
      `web-ui: TROVE_WEB_UI_SOURCE names ${missing}, which does not exist\n`,
    );

    const empty = path.join(base, 'empty-checkout');
    await mkdir(empty);
    const wrong = runScript(withCorepack, { TROVE_WEB_UI_SOURCE: empty });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toBe(
      `web-ui: ${empty} holds no Homebox frontend (no frontend/package.json)\n`,
    );
  });
});
