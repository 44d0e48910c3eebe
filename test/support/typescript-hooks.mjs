// Module hooks that let Node run Trove's TypeScript sources directly (registered by
// typescript-loader.mjs): `./x.js` imports resolve to `./x.ts` where only the .ts exists, and .ts
// files are compiled one at a time with TypeScript itself, with the same options as the tests'
// transform (test/support/typescript-transform.ts), so Nest's decorator metadata is emitted.
import { readFile } from 'node:fs/promises';
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
  const output = ts.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: COMPILER_OPTIONS,
  });
  return { format: 'module', source: output.outputText, shortCircuit: true };
}
