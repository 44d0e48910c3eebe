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

  it('puts every route in the folder the architecture page says its path names', async () => {
    const section = (await read('docs/architecture.md')).split('## Where a route lives')[1];
    const rows = section
      .split('\n## ')[0]
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => {
        const [paths, folder] = line.split('|').slice(1, 3);
        const methods = /\(([A-Z, ]+)\)/.exec(paths)?.[1].split(', ');
        return {
          prefixes: [...paths.matchAll(/`([^`]+)`/g)].map((match) => match[1].split('/').slice(1)),
          methods,
          folder: `src/${/`([^`]+)`/.exec(folder)![1]}/`,
        };
      });
    const routes = [
      ...(await read('docs/routes.md')).matchAll(/^## `([^`]+)`\n\n((?:- .*\n?(?: {2}.*\n?)*)+)/gm),
    ];
    const wrong: string[] = [];
    let checked = 0;
    for (const [, file, entries] of routes) {
      for (const [, method, route] of entries.matchAll(/- `([A-Z]+) ([^`]+)`/g)) {
        const segments = route
          .replace(/^\/api\/v1/, '')
          .split('/')
          .slice(1);
        let best: { length: number; folder: string } | undefined;
        for (const row of rows) {
          if (row.methods && !row.methods.includes(method)) continue;
          for (const prefix of row.prefixes) {
            const matches =
              prefix.length <= segments.length &&
              prefix.every((part, index) =>
                part === '{id}' ? segments[index].startsWith(':') : part === segments[index],
              );
            if (matches && (!best || prefix.length > best.length)) {
              best = { length: prefix.length, folder: row.folder };
            }
          }
        }
        checked += 1;
        if (!best || !file.startsWith(best.folder)) {
          wrong.push(`${method} ${route}: ${file}, the table says ${best?.folder ?? 'nothing'}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });
});
