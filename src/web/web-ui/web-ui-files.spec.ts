import { describe, expect, it } from 'vitest';
import { cacheControlFor, relativePathOf } from './web-ui-files.js';

describe('relativePathOf', () => {
  it('decodes a path once and drops empty segments', () => {
    expect(relativePathOf('/')).toBe('');
    expect(relativePathOf('/_nuxt/a%20b.js')).toBe('_nuxt/a b.js');
    expect(relativePathOf('//item//1/')).toBe('item/1');
  });

  it('refuses dot segments, backslashes, NUL, bad and double encodings', () => {
    for (const path of [
      '/../x',
      '/a/./b',
      '/%2e%2e/x',
      '/a%2f..%2fb/../..',
      '/a\\b',
      '/a%5cb',
      '/%00',
      '/%252e%252e/x',
      '/%252fetc',
      '/%E0%A4%A',
    ]) {
      expect([path, relativePathOf(path)]).toEqual([path, undefined]);
    }
  });
});

describe('cacheControlFor', () => {
  it('keeps hashed assets a year and revalidates what names the build and the rest', () => {
    expect(cacheControlFor('_nuxt/DKObYg2q.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('_nuxt/entry.o1XNqa7N.css')).toBe('public, max-age=31536000, immutable');
    for (const path of [
      '_nuxt/builds/latest.json',
      '_nuxt/builds/meta/b5b6.json',
      'index.html',
      '200.html',
      'sw.js',
      'workbox-1260b3ad.js',
      'manifest.webmanifest',
      'favicon.svg',
    ]) {
      expect([path, cacheControlFor(path)]).toEqual([path, 'no-cache']);
    }
  });
});
