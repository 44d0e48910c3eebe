/**
 * The module graph of `src/`: each module (`src/<layer>/<module>`, its sub-modules included) with
 * the modules it imports, and any cycle between modules. dependency-cruiser's own rules
 * (`.dependency-cruiser.mjs`) see cycles between folders; a cycle between two modules can pass
 * through different sub-folders of each, so this check collapses every file to its module first.
 * `npm run lint:modules` runs it; `node lint/module-graph.mjs --print` also prints the graph.
 */
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import config from '../.dependency-cruiser.mjs';

const moduleOf = (file) => {
  const parts = file.split('/');
  return parts.length >= 4 ? parts.slice(0, 3).join('/') : 'src (the app)';
};

const result = await cruise(['src'], config.options, undefined, {
  tsConfig: extractTSConfig('tsconfig.json'),
});
const edges = new Map();
for (const module of result.output.modules) {
  const from = moduleOf(module.source);
  if (!edges.has(from)) edges.set(from, new Set());
  for (const dependency of module.dependencies) {
    if (!dependency.resolved.startsWith('src/')) continue;
    const to = moduleOf(dependency.resolved);
    if (to !== from) edges.get(from).add(to);
  }
}

/** Strongly connected components of more than one module (Tarjan). */
function cycles() {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const found = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node), index.get(to)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component);
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

if (process.argv.includes('--print')) {
  for (const [from, to] of [...edges].sort()) {
    console.log(`${from} -> ${[...to].sort().join(', ') || '(nothing)'}`);
  }
}
const found = cycles();
for (const component of found) console.error(`module cycle: ${component.join(' -> ')}`);
console.log(`${edges.size} modules, ${found.length} module cycles`);
process.exitCode = found.length > 0 ? 1 : 0;
