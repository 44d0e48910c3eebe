import { open } from 'node:fs/promises';
import { Duplex, PassThrough, Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { Decrypter, Encrypter, identityToRecipient } from 'age-encryption';
import type { BackupEncryptionSettings } from '../../platform/config/configuration.js';
import { InstanceBackupRefused } from './instance-backup-format.js';

/** Every age file begins with this line (age-encryption.org/v1). */
const AGE_HEADER = Buffer.from('age-encryption.org/v1\n');

const settingName = (settings: BackupEncryptionSettings): string =>
  'passphrase' in settings ? 'TROVE_BACKUP_PASSPHRASE' : 'TROVE_BACKUP_AGE_KEY';

/**
 * A stream that encrypts what is written to it into an age file: with the passphrase (scrypt)
 * or to the recipient of the age identity. Memory stays flat: age seals 64 KiB chunks.
 */
export async function encryptingStream(settings: BackupEncryptionSettings): Promise<Duplex> {
  const encrypter = new Encrypter();
  if ('passphrase' in settings) encrypter.setPassphrase(settings.passphrase);
  else encrypter.addRecipient(await identityToRecipient(settings.ageKey));
  const plain = new PassThrough();
  const sealed = await encrypter.encrypt(Readable.toWeb(plain) as ReadableStream<Uint8Array>);
  return Duplex.from({ writable: plain, readable: Readable.fromWeb(sealed) });
}

/** Whether the file is an age file (an encrypted backup). */
export async function isEncrypted(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(AGE_HEADER.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(AGE_HEADER);
  } finally {
    await handle.close();
  }
}

/**
 * The plain bytes of an archive file: the file itself, or, when it is encrypted, its
 * decryption with the configured passphrase or key. An encrypted archive without one, or with
 * another one than it was written with, is refused here, before anything is read further.
 * Bytes changed later in the file fail their chunk's authentication while streaming.
 */
export async function decryptingStream(
  source: Readable,
  settings: BackupEncryptionSettings | null,
): Promise<Readable> {
  if (!settings) {
    source.destroy();
    throw new InstanceBackupRefused(
      'the archive is encrypted; set TROVE_BACKUP_PASSPHRASE or TROVE_BACKUP_AGE_KEY to the passphrase or key it was written with; nothing was restored',
    );
  }
  const decrypter = new Decrypter();
  if ('passphrase' in settings) decrypter.addPassphrase(settings.passphrase);
  else decrypter.addIdentity(settings.ageKey);
  try {
    const plain = await decrypter.decrypt(Readable.toWeb(source) as ReadableStream<Uint8Array>);
    return Readable.fromWeb(plain);
  } catch (error) {
    source.destroy();
    throw new InstanceBackupRefused(
      `the archive cannot be decrypted with ${settingName(settings)}: it was encrypted with another passphrase or key (${(error as Error).message}); nothing was restored`,
    );
  }
}
