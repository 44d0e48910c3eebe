import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from './request-fingerprint.js';

const base = { method: 'POST', url: '/api/v1/tags', tenant: 'g1', body: { name: 'a' } };

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
    );
  });

  it('leaves out undefined properties, as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
    expect(canonicalJson(undefined)).toBe('null');
  });
});

describe('requestFingerprint', () => {
  it('is the same for the same request, whatever the key order of its body', () => {
    expect(requestFingerprint({ ...base, body: { name: 'a', color: 'b' } })).toBe(
      requestFingerprint({ ...base, body: { color: 'b', name: 'a' } }),
    );
  });

  it('differs with the method, the path, the group or the body', () => {
    const fingerprints = new Set([
      requestFingerprint(base),
      requestFingerprint({ ...base, method: 'PUT' }),
      requestFingerprint({ ...base, url: '/api/v1/tags?x=1' }),
      requestFingerprint({ ...base, tenant: 'g2' }),
      requestFingerprint({ ...base, tenant: null }),
      requestFingerprint({ ...base, body: { name: 'b' } }),
      requestFingerprint({ ...base, body: undefined }),
    ]);
    expect(fingerprints.size).toBe(7);
    for (const fingerprint of fingerprints) expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });
});
