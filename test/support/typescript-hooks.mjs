// Module hooks that let Node run Trove's TypeScript sources directly (registered by
// typescript-loader.mjs): `./x.js` imports resolve to `./x.ts` where only the .ts exists, and .ts
// files are compiled one at a time with TypeScript itself, with the same options as the tests'
// transform (test/support/typescript-transform.ts), so Nest's decorator metadata is emitted.
// Each compiled module is kept under node_modules/.cache, keyed by its text, so that only the
// first process of a run pays for compiling them all.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const COMPILER_OPTIONS = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2023,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  useDefineForClassFields: false,
  inlineSourceMap: true,
  inlineSources: true,
};

const CACHE_DIR = fileURLToPath(
  new URL('../../node_modules/.cache/trove-typescript/', import.meta.url),
);
const CACHE_VERSION = `${ts.version} ${JSON.stringify(COMPILER_OPTIONS)}`;

/** The module compiled, from the cache when its text was compiled before. */
async function compile(fileName, source) {
  const key = createHash('sha256').update(`${CACHE_VERSION}\0${fileName}\0${source}`).digest('hex');
  const cached = path.join(CACHE_DIR, `${key}.js`);
  const hit = await readFile(cached, 'utf8').catch(() => undefined);
  if (hit !== undefined) return hit;
  const { outputText } = ts.transpileModule(source, {
    fileName,
    compilerOptions: COMPILER_OPTIONS,
  });
  // Written aside and renamed: a process reading it meanwhile sees all of it or nothing.
  const partial = `${cached}.${process.pid}.partial`;
  await mkdir(CACHE_DIR, { recursive: true });
  await writeFile(partial, outputText);
  await rename(partial, cached);
  return outputText;
}

const isRelative = (specifier) =>
  specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('file:');

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !isRelative(specifier)) throw error;
    if (!specifier.endsWith('.js')) throw error;
    return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) {
    return nextLoad(url, context);
  }
  const fileName = fileURLToPath(url);
  const source = await compile(fileName, await readFile(fileName, 'utf8'));
  return { format: 'module', source, shortCircuit: true };
}
