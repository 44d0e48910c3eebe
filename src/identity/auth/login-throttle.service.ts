import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { LoginAttemptRepository } from './login-attempt.repository.js';

/** An address gets this many times an account's allowance (several people may share one). */
const ADDRESS_FACTOR = 4;

export class TooManyAttemptsException extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super('too many authentication attempts', HttpStatus.TOO_MANY_REQUESTS);
  }
}

export interface ThrottleKeys {
  account?: string;
  address?: string;
  /**
   * Keeps these counts apart from those of other routes (`forgot-password`, say); sign-ins
   * count without a scope.
   */
  scope?: string;
}

/**
 * Counts failed sign-ins per account and per client address in the database, so several
 * instances share the count; other public routes count their own attempts under a scope.
 * After too many failures within the window a key is locked for a back-off that doubles with
 * each further failure; a success clears both keys.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    private readonly attempts: LoginAttemptRepository,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /** Deletes sign-in failure counts older than a day; how many (the hourly purge). */
  deleteStale(): Promise<number> {
    return this.attempts.deleteStale();
  }

  private get settings(): TroveConfig['auth']['rateLimit'] {
    return this.config.get('auth', { infer: true }).rateLimit;
  }

  private keysOf(keys: ThrottleKeys): { key: string; limit: number }[] {
    const { maxAttempts } = this.settings;
    const prefix = keys.scope ? `${keys.scope}:` : '';
    const list: { key: string; limit: number }[] = [];
    if (keys.account) list.push({ key: `${prefix}account:${keys.account}`, limit: maxAttempts });
    if (keys.address)
      list.push({ key: `${prefix}address:${keys.address}`, limit: maxAttempts * ADDRESS_FACTOR });
    return list;
  }

  /** Throws 429 while any of the keys is locked. */
  async assertAllowed(keys: ThrottleKeys): Promise<void> {
    if (!this.settings.enabled) return;
    const names = this.keysOf(keys).map(({ key }) => key);
    if (names.length === 0) return;
    const waitMs = await this.attempts.longestWaitMs(names);
    if (waitMs > 0) throw new TooManyAttemptsException(Math.ceil(waitMs / 1000));
  }

  async recordFailure(keys: ThrottleKeys): Promise<void> {
    if (!this.settings.enabled) return;
    const { windowMs, baseBackoffMs, maxBackoffMs } = this.settings;
    for (const { key, limit } of this.keysOf(keys)) {
      await this.attempts.recordFailure(key, { limit, windowMs, baseBackoffMs, maxBackoffMs });
    }
  }

  async recordSuccess(keys: ThrottleKeys): Promise<void> {
    if (!this.settings.enabled) return;
    const names = this.keysOf(keys).map(({ key }) => key);
    await this.attempts.clear(names);
  }
}
