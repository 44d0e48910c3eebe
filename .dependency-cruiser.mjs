/**
 * Modules depend one way (STYLE.md §14 and §18, docs/architecture.md "Modules and layers"). The
 * folders of `src/` are layers, bottom up: platform, identity, inventory, operations, web; above
 * them the app itself (the files at the top of `src/`) and the commands of `cli/`. Code imports
 * only from its own layer or the layers below it, and no chain of imports leads from a folder back
 * to itself. `npm run lint:modules` runs these rules.
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

/** The layers, bottom up: a layer imports only from itself and the layers before it. */
const LAYERS = ['platform', 'identity', 'inventory', 'operations', 'web'];

const above = (layer) => LAYERS.slice(LAYERS.indexOf(layer) + 1);

export default {
  forbidden: [
    ...LAYERS.map((layer) => ({
      name: `${layer}-imports-only-below`,
      comment:
        `src/${layer}/ imports only from itself and the layers below it ` +
        `(${LAYERS.slice(0, LAYERS.indexOf(layer)).join(', ') || 'none'}), never from ` +
        `${[...above(layer), 'the app'].join(', ')}.`,
      severity: 'error',
      from: { path: `^src/${layer}/` },
      to: {
        path: [...above(layer).map((higher) => `^src/${higher}/`), '^src/cli/', '^src/[^/]+\\.ts$'],
      },
    })),
    {
      name: 'no-module-cycle',
      comment: 'No chain of imports leads from a folder of src/ back to itself.',
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
