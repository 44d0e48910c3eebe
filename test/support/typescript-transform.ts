import ts from 'typescript';
import type { Plugin } from 'vite';

/**
 * Compiles TypeScript for the tests with TypeScript itself, one file at a time, so that Nest's
 * decorator metadata is emitted exactly as `tsc` emits it for the build.
 */
export function typescriptTransform(): Plugin {
  return {
    name: 'trove-typescript',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('.ts') || id.includes('/node_modules/')) return null;
      const output = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2023,
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          useDefineForClassFields: false,
          sourceMap: true,
          inlineSources: true,
        },
      });
      return { code: output.outputText, map: output.sourceMapText };
    },
  };
}
