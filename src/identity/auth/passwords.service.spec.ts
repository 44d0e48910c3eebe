import { describe, expect, it } from 'vitest';
import { PasswordsService } from './passwords.service.js';

describe('PasswordsService', () => {
  const passwords = new PasswordsService();

  it('hashes with argon2id at the configured parameters and verifies', async () => {
    const stored = await passwords.hash('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await passwords.verify(stored, 'correct horse')).toBe(true);
    expect(await passwords.verify(stored, 'wrong horse')).toBe(false);
    expect(await passwords.verify(null, 'anything')).toBe(false);
    expect(passwords.needsRehash(stored)).toBe(false);
  });

  it('asks for a rehash of weaker or other hashes', () => {
    expect(passwords.needsRehash('$argon2id$v=19$m=4096,t=3,p=1$c2FsdA$aGFzaA')).toBe(true);
    expect(passwords.needsRehash('$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA')).toBe(true);
    expect(passwords.needsRehash('$2b$10$abcdefghijklmnopqrstuv')).toBe(true);
  });
});
