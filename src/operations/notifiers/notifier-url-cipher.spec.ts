import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptUrl, deriveKey, encryptUrl } from './notifier-url-cipher.js';

describe('notifier URL encryption', () => {
  const key = deriveKey(Buffer.from('a configured secret'));
  const id = '4b0f7a52-4c43-4d4b-9a55-0d1f3f3e2a10';
  const url = 'telegram://110201543:AAHdqTcv@telegram?chats=@family';

  it('round-trips, with a fresh IV each time and no trace of the URL', () => {
    const first = encryptUrl(key, id, url);
    const second = encryptUrl(key, id, url);
    expect(first).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('AAHdqTcv');
    expect(decryptUrl(key, id, first)).toBe(url);
    expect(decryptUrl(key, id, second)).toBe(url);
  });

  it('fails for another key, another notifier id, or a changed text', () => {
    const sealed = encryptUrl(key, id, url);
    expect(() => decryptUrl(deriveKey(randomBytes(32)), id, sealed)).toThrow(/cannot be decrypted/);
    expect(() => decryptUrl(key, '00000000-0000-4000-8000-000000000000', sealed)).toThrow(
      /cannot be decrypted/,
    );
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => decryptUrl(key, id, tampered)).toThrow(/cannot be decrypted/);
    expect(() => decryptUrl(key, id, 'plain text')).toThrow(/unknown format/);
  });

  it('derives a 32-byte key from a secret of any length', () => {
    expect(deriveKey(Buffer.from('x'))).toHaveLength(32);
    expect(deriveKey(randomBytes(64))).toHaveLength(32);
    expect(deriveKey(Buffer.from('x'))).toEqual(deriveKey(Buffer.from('x')));
  });
});
