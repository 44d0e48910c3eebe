import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ServerSecretsService } from '../../identity/auth/server-secrets.service.js';
import type { TroveConfig } from '../../platform/config/configuration.js';

/** The `server_secrets` row of the generated key, when none is configured. */
export const NOTIFIER_KEY_SECRET = 'notifier_url_key';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Derives the AES-256 key from the secret (any length, configured or generated). */
export const deriveKey = (secret: Buffer): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'trove notifier url', 32));

/**
 * Encrypts `url` with AES-256-GCM, bound to the notifier `id` (a ciphertext moved to another row
 * does not decrypt): `v1.<base64url of IV, ciphertext and tag>`.
 */
export function encryptUrl(key: Buffer, id: string, url: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(id, 'utf8'));
  const sealed = Buffer.concat([cipher.update(url, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url')}`;
}

/** The URL `encryptUrl` sealed; throws when the key, the id or the text do not match. */
export function decryptUrl(key: Buffer, id: string, text: string): string {
  const [version, payload] = text.split('.', 2);
  if (version !== VERSION || payload === undefined) {
    throw new Error('stored notifier URL has an unknown format');
  }
  const raw = Buffer.from(payload, 'base64url');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('stored notifier URL is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(id, 'utf8'));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  try {
    return Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  } catch {
    throw new Error(
      'stored notifier URL cannot be decrypted (was TROVE_NOTIFIER_ENCRYPTION_KEY changed?)',
    );
  }
}

/**
 * Notifier URLs at rest: encrypted with a key derived from `TROVE_NOTIFIER_ENCRYPTION_KEY`, or,
 * when that is empty, from a secret generated once and kept in the database (shared by every
 * instance, like the token signing key).
 */
@Injectable()
export class NotifierUrlCipher {
  private key?: Promise<Buffer>;

  constructor(
    private readonly secrets: ServerSecretsService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  async encrypt(id: string, url: string): Promise<string> {
    return encryptUrl(await this.loadKey(), id, url);
  }

  async decrypt(id: string, text: string): Promise<string> {
    return decryptUrl(await this.loadKey(), id, text);
  }

  private loadKey(): Promise<Buffer> {
    if (!this.key) {
      const configured = this.config.get('notifiers', { infer: true }).encryptionKey;
      this.key = this.secrets.get(NOTIFIER_KEY_SECRET, configured).then(deriveKey);
      this.key.catch(() => (this.key = undefined));
    }
    return this.key;
  }
}
