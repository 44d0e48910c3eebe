import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ConsumedStates,
  openState,
  pkceChallenge,
  sealState,
  type OidcStatePayload,
} from './oidc-state-store.js';

const key = Buffer.from('k'.repeat(32));
const payload: OidcStatePayload = {
  state: 'state-1',
  nonce: 'nonce-1',
  verifier: 'verifier-1',
  expiresAt: 2_000,
};

describe('sealState and openState', () => {
  it('round-trips a payload before it expires', () => {
    expect(openState(sealState(payload, key), key, 1_000)).toEqual({ ok: true, payload });
  });

  it('refuses an expired payload', () => {
    expect(openState(sealState(payload, key), key, 2_000)).toEqual({
      ok: false,
      reason: 'the sign-in has expired',
    });
  });

  it('refuses another key, a changed payload, and garbage', () => {
    const sealed = sealState(payload, key);
    expect(openState(sealed, Buffer.from('x'.repeat(32)), 1_000).ok).toBe(false);
    const [, signature] = sealed.split('.');
    const changed = Buffer.from(JSON.stringify({ ...payload, expiresAt: 9_999 })).toString(
      'base64url',
    );
    expect(openState(`${changed}.${signature}`, key, 1_000)).toEqual({
      ok: false,
      reason: 'state cookie signature does not match',
    });
    expect(openState(undefined, key).ok).toBe(false);
    expect(openState('a.b.c', key).ok).toBe(false);
    expect(openState('no-dot', key).ok).toBe(false);
  });
});

describe('pkceChallenge', () => {
  it('is the base64url SHA-256 of the verifier (RFC 7636 appendix B)', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    expect(pkceChallenge('abc')).toBe(createHash('sha256').update('abc').digest('base64url'));
  });
});

describe('ConsumedStates', () => {
  it('accepts a state once until it expires', () => {
    const consumed = new ConsumedStates();
    expect(consumed.consume('a', 2_000, 1_000)).toBe(true);
    expect(consumed.consume('a', 2_000, 1_500)).toBe(false);
    expect(consumed.consume('b', 3_000, 2_500)).toBe(true);
    // 'a' has expired and was forgotten; its cookie would be refused as expired anyway.
    expect(consumed.consume('a', 4_000, 2_600)).toBe(true);
  });

  it('forgets the oldest states beyond its capacity', () => {
    const consumed = new ConsumedStates(2);
    consumed.consume('a', 9_000, 1);
    consumed.consume('b', 9_000, 1);
    consumed.consume('c', 9_000, 1);
    expect(consumed.consume('c', 9_000, 1)).toBe(false);
    expect(consumed.consume('a', 9_000, 1)).toBe(true);
  });
});
