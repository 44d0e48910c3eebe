import { describe, expect, it } from 'vitest';
import { localTarget } from '../../platform/http/local-target.js';
import { isAlwaysTrovePage, isPagePath } from './page-paths.js';

describe('localTarget', () => {
  it('keeps a path of Trove’s own address, with its query', () => {
    expect(localTarget('/console/stock?window=7')).toBe('/console/stock?window=7');
  });

  it('falls back to the signed-in page for anything that could leave the address', () => {
    for (const next of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'console',
      '/a\nb',
      undefined,
      7,
    ]) {
      expect(localTarget(next)).toBe('/home');
    }
    expect(localTarget(`/${'a'.repeat(2001)}`)).toBe('/home');
  });
});

describe('page paths', () => {
  it('keeps the console and the sign-in form Trove’s beside a web UI, and / the UI’s', () => {
    expect(isAlwaysTrovePage('/console')).toBe(true);
    expect(isAlwaysTrovePage('/console/stock')).toBe(true);
    expect(isAlwaysTrovePage('/sign-in')).toBe(true);
    expect(isAlwaysTrovePage('/consoles')).toBe(false);
    expect(isAlwaysTrovePage('/')).toBe(false);
    expect(isPagePath('/')).toBe(true);
    expect(isPagePath('/item/1')).toBe(false);
  });
});
