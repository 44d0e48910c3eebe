// `node --import ./test/support/loaded-modules.mjs ...` records every module the process loads:
// ES modules as their resolved URLs (through a resolve hook, which runs on the loader thread and
// reports here over a MessagePort), CommonJS modules as the keys of the require cache. On SIGUSR2,
// and again when the process exits, the list is written as a JSON array of paths (and URLs of
// built-ins) to the file named by TROVE_LOADED_MODULES_FILE, written aside and renamed so that a
// reader sees all of it or nothing.
import { writeFileSync, renameSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const esModules = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => esModules.add(url));
port1.unref();
register('./loaded-modules-hooks.mjs', import.meta.url, {
  data: { port: port2 },
  transferList: [port2],
});

/** Every module loaded so far: file paths, and `node:` URLs for built-ins. */
export function loadedModules() {
  const paths = new Set(Object.keys(require.cache));
  for (const url of esModules) {
    paths.add(url.startsWith('file:') ? fileURLToPath(url) : url);
  }
  return [...paths].sort();
}

const file = process.env.TROVE_LOADED_MODULES_FILE;
if (file) {
  const write = () => {
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(loadedModules()));
    renameSync(partial, file);
  };
  process.on('SIGUSR2', write);
  process.on('exit', write);
}
