import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_PAGES, renderGeneratedPages } from './docs.js';

const root = process.cwd();
const read = (file: string): Promise<string> => readFile(`${root}/${file}`, 'utf8');
const pages = async (): Promise<string[]> =>
  (await readdir(`${root}/docs`)).filter((name) => name.endsWith('.md')).map((n) => `docs/${n}`);

describe('docs', () => {
  it('has its generated pages as the code makes them now (npm run docs writes them)', async () => {
    const rendered = await renderGeneratedPages(root);
    expect(Object.keys(rendered)).toEqual([...GENERATED_PAGES]);
    for (const [page, content] of Object.entries(rendered)) {
      expect(await read(page), `${page} is stale: run npm run docs`).toBe(content);
    }
  });

  it('keeps the README to 200 lines and every line of it and of docs/ to 100 characters', async () => {
    expect((await read('README.md')).trimEnd().split('\n').length).toBeLessThanOrEqual(200);
    for (const file of ['README.md', ...(await pages())]) {
      const long = (await read(file))
        .split('\n')
        .map((line, index) => ({ line: index + 1, length: [...line].length }))
        .filter((entry) => entry.length > 100);
      expect(long, `${file} has lines over 100 characters`).toEqual([]);
    }
  });

  it('links every page of docs/ from the README', async () => {
    const readme = await read('README.md');
    const unlinked = (await pages()).filter((page) => !readme.includes(`](${page})`));
    expect(unlinked).toEqual([]);
  });

  it('has every relative link of the README and of docs/ lead to a file that exists', async () => {
    const broken: string[] = [];
    for (const file of ['README.md', ...(await pages())]) {
      const base = path.dirname(`${root}/${file}`);
      for (const [, target] of (await read(file)).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(path.resolve(base, target))) broken.push(`${file} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
