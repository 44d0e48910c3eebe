import { createHash } from 'node:crypto';

/** SHA-256 of a secret, the form in which Trove stores tokens it hands out. */
export const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();
