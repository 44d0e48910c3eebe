// `node --import ./test/telemetry/module-list.mjs`: writes every module the process loads to the
// file named by TROVE_TEST_MODULE_LIST: each ES module's URL as it is resolved (module hooks, in
// `module-list-hooks.mjs`), and, when the process exits, every CommonJS module in require's cache.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.TROVE_TEST_MODULE_LIST;
if (file) {
  register('./module-list-hooks.mjs', import.meta.url, { data: { file } });
  const require = createRequire(import.meta.url);
  process.on('exit', () => {
    appendFileSync(file, `${Object.keys(require.cache).join('\n')}\n`);
  });
}
