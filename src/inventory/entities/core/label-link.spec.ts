import { describe, expect, it } from 'vitest';
import { labelLink, publicBaseUrl, readLabelLink, unescapeQrData } from './label-link.js';

describe('publicBaseUrl', () => {
  it('uses the configured hostname, adding https:// when it has no scheme', () => {
    expect(publicBaseUrl('trove.example.com', 'http://10.0.0.5:7745')).toBe(
      'https://trove.example.com',
    );
    expect(publicBaseUrl('  trove.example.com:8443/ ', 'http://x')).toBe(
      'https://trove.example.com:8443',
    );
  });

  it('keeps a configured scheme and path, without trailing slashes', () => {
    expect(publicBaseUrl('http://inventory.lan/', 'http://x')).toBe('http://inventory.lan');
    expect(publicBaseUrl('https://example.com/trove//', 'http://x')).toBe(
      'https://example.com/trove',
    );
  });

  it("falls back to the request's origin when no hostname is configured", () => {
    expect(publicBaseUrl('', 'http://127.0.0.1:7745')).toBe('http://127.0.0.1:7745');
    expect(publicBaseUrl('   ', 'https://proxy.example.com')).toBe('https://proxy.example.com');
  });
});

describe('labelLink', () => {
  const id = '0b7f8a3c-5f7e-4d0e-9a55-3f1c2d7f9e11';

  it('links items, locations and asset ids as the web UI routes them', () => {
    expect(labelLink('https://t.example', { kind: 'item', id })).toBe(
      `https://t.example/item/${id}`,
    );
    expect(labelLink('https://t.example', { kind: 'location', id })).toBe(
      `https://t.example/location/${id}`,
    );
    expect(labelLink('https://t.example', { kind: 'asset', assetId: '000-042' })).toBe(
      'https://t.example/a/000-042',
    );
  });
});

describe('unescapeQrData', () => {
  it('unescapes once more, as Go’s url.QueryUnescape does', () => {
    expect(unescapeQrData('https%3A%2F%2Fx.test%2Fitem%2F1')).toBe('https://x.test/item/1');
    expect(unescapeQrData('a+b%2Bc')).toBe('a b+c');
    expect(unescapeQrData('Gr%C3%BC%C3%9Fe')).toBe('Grüße');
  });

  it('keeps a value that is not validly escaped as it is', () => {
    expect(unescapeQrData('100%')).toBe('100%');
    expect(unescapeQrData('%E0%A4%A')).toBe('%E0%A4%A');
    expect(unescapeQrData('plain text')).toBe('plain text');
  });
});

describe('readLabelLink', () => {
  const id = '0b5e3a86-2f5c-4d0e-9d7a-2b1f0c9a4e11';

  it('reads back what labelLink writes, from any host', () => {
    for (const target of [
      { kind: 'item' as const, id },
      { kind: 'location' as const, id },
      { kind: 'asset' as const, assetId: '000-042' },
    ]) {
      expect(readLabelLink(labelLink('https://inventory.example', target))).toEqual(target);
      expect(readLabelLink(labelLink('http://old-host:7745', target))).toEqual(target);
    }
  });

  it('reads nothing from text that is not a label link', () => {
    for (const text of [
      '000-042',
      'drill',
      `ftp://x/item/${id}`,
      'https://x/item/7',
      'https://x/',
    ]) {
      expect(readLabelLink(text)).toBeUndefined();
    }
  });
});
