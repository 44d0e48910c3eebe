#!/usr/bin/env node
// `npm run web-ui`: builds Homebox's web UI (its `frontend/`, AGPL-3.0) at a pinned release and
// puts the static app in ./web-ui, for TROVE_WEB_UI_DIR. The Dockerfile's web-ui stage runs this
// very script.
//
//   TROVE_WEB_UI_SOURCE   an already downloaded Homebox release archive (.tar.gz) or checkout
//                         (its root or its frontend/), used instead of downloading
//   TROVE_WEB_UI_OUT      where the app goes (default: ./web-ui beside package.json)
//   TROVE_WEB_UI_WORK     where the source is unpacked and built (default: a temporary directory,
//                         removed afterwards)
//   TROVE_WEB_UI_ARCHIVE_URL  another place to download the release archive from (a mirror)
//
// Needs pnpm, run through corepack (which comes with Node.js and fetches the pnpm version the
// frontend names from the npm registry), or a pnpm on PATH.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

/** The Homebox release whose frontend speaks the entities API that Trove serves. */
const HOMEBOX_VERSION = 'v0.26.2';
const HOMEBOX_ARCHIVE_URL = `https://github.com/sysadminsmedia/homebox/archive/refs/tags/${HOMEBOX_VERSION}.tar.gz`;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const outDir = path.resolve(env.TROVE_WEB_UI_OUT || path.join(root, 'web-ui'));
/** Files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:html|js|mjs|css|json|webmanifest|svg|txt|xml|map|ico)$/i;
const MIN_COMPRESS_BYTES = 1024;

class Failure extends Error {}

function log(message) {
  process.stdout.write(`web-ui: ${message}\n`);
}

function probe(command, args, cwd) {
  return spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...env, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0' },
  });
}

const works = (result) => !result.error && result.status === 0;

/** Fails at once when neither corepack nor pnpm is there, before anything is downloaded. */
function assertPnpmReachable() {
  if (works(probe('corepack', ['--version'])) || works(probe('pnpm', ['--version']))) return;
  throw new Failure(
    'neither corepack nor pnpm was found on PATH. Homebox’s frontend is built with pnpm: use ' +
      'a Node.js that ships corepack (Node 20 does; some distributions package it apart, e.g. ' +
      'Debian’s "corepack"), or install pnpm (npm install -g pnpm@10).',
  );
}

/**
 * How to run pnpm in `frontend`: through corepack, which fetches the version the frontend's
 * `packageManager` names, else a pnpm on PATH.
 */
function findPnpm(frontend) {
  const viaCorepack = probe('corepack', ['pnpm', '--version'], frontend);
  if (works(viaCorepack)) return ['corepack', 'pnpm'];
  if (works(probe('pnpm', ['--version'], frontend))) return ['pnpm'];
  const said = `${viaCorepack.stderr ?? ''}${viaCorepack.stdout ?? ''}`;
  if (/signature/i.test(said)) {
    throw new Failure(
      'corepack could not verify the signature of pnpm from the npm registry (a registry mirror ' +
        'that strips package signatures?). Set COREPACK_INTEGRITY_KEYS=0 to skip that check, or ' +
        'install pnpm yourself (npm install -g pnpm@10).',
    );
  }
  const reason = viaCorepack.error?.message ?? said.trim().split('\n').pop() ?? 'unknown error';
  throw new Failure(
    `corepack could not provide pnpm (${reason}); it downloads pnpm from the npm registry, ` +
      'which needs network access. Install pnpm yourself (npm install -g pnpm@10) otherwise.',
  );
}

async function download(url, file) {
  let response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  } catch (error) {
    const reason = error?.cause?.message ?? error?.message ?? String(error);
    throw new Failure(
      `could not download Homebox ${HOMEBOX_VERSION} from ${url} (${reason}). Without network ` +
        `access, fetch that archive (or a checkout of tag ${HOMEBOX_VERSION}) elsewhere and set ` +
        'TROVE_WEB_UI_SOURCE to its path.',
    );
  }
  if (!response.ok || !response.body) {
    throw new Failure(
      `could not download Homebox ${HOMEBOX_VERSION}: ${url} answered ${response.status}`,
    );
  }
  await pipeline(Readable.fromWeb(response.body), createWriteStream(file));
}

function run(command, args, cwd) {
  log(`${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    cwd,
    stdio: 'inherit',
    env: { ...env, COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', CI: 'true', NUXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.error) throw new Failure(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Failure(`${command} ${args.join(' ')} failed (exit status ${result.status})`);
  }
}

/** The directory holding Homebox's frontend/ and LICENSE, from an archive or a checkout. */
async function unpackSource(source, work) {
  const info = await stat(source).catch(() => undefined);
  if (!info) throw new Failure(`TROVE_WEB_UI_SOURCE names ${source}, which does not exist`);
  let tree = source;
  if (info.isFile()) {
    tree = path.join(work, 'source');
    await mkdir(tree, { recursive: true });
    run('tar', ['-xzf', source, '-C', tree], work);
    const entries = await readdir(tree);
    // A release archive holds one directory (homebox-0.26.2/).
    if (entries.length === 1) tree = path.join(tree, entries[0]);
  }
  if (existsSync(path.join(tree, 'frontend', 'package.json'))) return tree;
  if (
    existsSync(path.join(tree, 'package.json')) &&
    existsSync(path.join(tree, 'nuxt.config.ts'))
  ) {
    // A frontend/ directory itself; the licence is one level up.
    return path.dirname(tree);
  }
  throw new Failure(`${source} holds no Homebox frontend (no frontend/package.json)`);
}

/** Writes .br and .gz siblings of the compressible files, which Trove sends when accepted. */
async function precompress(dir) {
  let count = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if ((await stat(file)).size < MIN_COMPRESS_BYTES) continue;
    await pipeline(
      createReadStream(file),
      zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
      createWriteStream(`${file}.br`),
    );
    await pipeline(
      createReadStream(file),
      zlib.createGzip({ level: 9 }),
      createWriteStream(`${file}.gz`),
    );
    count += 1;
  }
  return count;
}

async function main() {
  assertPnpmReachable();
  const work = env.TROVE_WEB_UI_WORK
    ? path.resolve(env.TROVE_WEB_UI_WORK)
    : await mkdtemp(path.join(os.tmpdir(), 'trove-web-ui-'));
  await mkdir(work, { recursive: true });
  try {
    let source = env.TROVE_WEB_UI_SOURCE ? path.resolve(env.TROVE_WEB_UI_SOURCE) : undefined;
    if (!source) {
      source = path.join(work, `homebox-${HOMEBOX_VERSION}.tar.gz`);
      const url = env.TROVE_WEB_UI_ARCHIVE_URL || HOMEBOX_ARCHIVE_URL;
      log(`downloading Homebox ${HOMEBOX_VERSION}: ${url}`);
      await download(url, source);
    }
    const tree = await unpackSource(source, work);
    const frontend = path.join(work, 'frontend');
    if (path.join(tree, 'frontend') !== frontend) {
      await rm(frontend, { recursive: true, force: true });
      await cp(path.join(tree, 'frontend'), frontend, {
        recursive: true,
        filter: (from) => !/[\\/](node_modules|\.nuxt|\.output)$/.test(from),
      });
    }
    const pkg = JSON.parse(await readFile(path.join(frontend, 'package.json'), 'utf8'));
    log(`building Homebox's frontend (${pkg.packageManager ?? 'pnpm'})`);
    const pnpm = findPnpm(frontend);
    run(pnpm[0], [...pnpm.slice(1), 'install', '--frozen-lockfile'], frontend);
    run(pnpm[0], [...pnpm.slice(1), 'run', 'build'], frontend);
    const built = path.join(frontend, '.output', 'public');
    if (!existsSync(path.join(built, 'index.html'))) {
      throw new Failure(`the build left no ${path.join(built, 'index.html')}`);
    }
    const compressed = await precompress(built);
    const licence = path.join(tree, 'LICENSE');
    if (existsSync(licence)) await cp(licence, path.join(built, 'LICENSE.homebox.txt'));
    await writeFile(
      path.join(built, 'homebox-version.txt'),
      `Homebox ${HOMEBOX_VERSION} frontend (AGPL-3.0), built ${new Date().toISOString()}\n`,
    );
    // Replace the output in one step, so a running Trove never sees half of it.
    const staging = `${outDir}.new-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await cp(built, staging, { recursive: true });
    const previous = `${outDir}.old-${process.pid}`;
    if (existsSync(outDir)) await rename(outDir, previous);
    await rename(staging, outDir);
    await rm(previous, { recursive: true, force: true });
    log(
      `done: ${outDir} (${compressed} files precompressed). Start Trove with TROVE_WEB_UI_DIR=${outDir}`,
    );
  } finally {
    if (!env.TROVE_WEB_UI_WORK) await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  if (error instanceof Failure) process.stderr.write(`web-ui: ${error.message}\n`);
  else process.stderr.write(`web-ui: ${error?.stack ?? error}\n`);
  process.exit(1);
});
