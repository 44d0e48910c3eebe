// `npm run docs`: writes the pages of docs/ that are generated from the code.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderGeneratedPages } from './docs.js';

const root = process.cwd();
for (const [page, content] of Object.entries(await renderGeneratedPages(root))) {
  await writeFile(path.join(root, page), content);
  process.stdout.write(`wrote ${page}\n`);
}
