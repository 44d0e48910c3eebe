import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default) with OWASP's recommended parameters: 19 MiB, 2 passes, 1 lane. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** `$argon2id$v=19$m=19456,t=2,p=1$...`: the algorithm and parameters a stored hash was made with. */
const PARAMETERS = /^\$(argon2(?:id|i|d))\$v=\d+\$m=(\d+),t=(\d+),p=(\d+)\$/;

@Injectable()
export class PasswordsService {
  /** Verified against when there is no user, so a wrong e-mail costs as long as a wrong password. */
  private readonly decoy = hash('decoy password that matches nothing', OPTIONS);

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  /** True when `password` matches `hash`; a null hash (no password set) never matches. */
  async verify(stored: string | null, password: string): Promise<boolean> {
    if (stored === null) {
      await verify(await this.decoy, password).catch(() => false);
      return false;
    }
    return verify(stored, password).catch(() => false);
  }

  /** True when a stored hash was made with another algorithm or weaker parameters. */
  needsRehash(stored: string): boolean {
    const match = PARAMETERS.exec(stored);
    if (!match) return true;
    const [, algorithm, memory, time, lanes] = match;
    return (
      algorithm !== 'argon2id' ||
      Number(memory) < OPTIONS.memoryCost ||
      Number(time) < OPTIONS.timeCost ||
      Number(lanes) !== OPTIONS.parallelism
    );
  }
}
