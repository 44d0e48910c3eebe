/**
 * Modules depend one way (STYLE.md §14): a module is a folder of `src/`, and no chain of imports
 * leads from a folder back to itself. The rule is folder-scoped, so it sees a cycle between
 * modules even where no single file imports itself back (ESLint's `import/no-cycle` sees only
 * cycles between files). `npm run lint:modules` runs it.
 *
 * Exempt, and only these:
 * - Type-only imports (`import type`, `import { type X }`). They vanish from the compiled code, so
 *   they are not followed (`tsPreCompilationDeps: false`). Records name the records they relate
 *   to by string (`@ManyToOne('GroupRecord', ...)`) and import the other record's class as a type
 *   only, so relations between records in different modules are not dependencies.
 * - Tests (`*.spec.ts`).
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
export default {
  forbidden: [
    {
      name: 'no-module-cycle',
      comment: 'A folder of src/ imports only from folders below it (STYLE.md §14).',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    exclude: { path: ['\\.spec\\.ts$'] },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
