import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { TroveConfig } from '../config/configuration.js';

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
}

/**
 * Counts failed sign-ins per account and per client address in the database, so several
 * instances share the count. After too many failures within the window a key is locked for a
 * back-off that doubles with each further failure; a success clears both keys.
 */
@Injectable()
export class LoginThrottleService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  private get settings(): TroveConfig['auth']['rateLimit'] {
    return this.config.get('auth', { infer: true }).rateLimit;
  }

  private keysOf(keys: ThrottleKeys): { key: string; limit: number }[] {
    const { maxAttempts } = this.settings;
    const list: { key: string; limit: number }[] = [];
    if (keys.account) list.push({ key: `account:${keys.account}`, limit: maxAttempts });
    if (keys.address)
      list.push({ key: `address:${keys.address}`, limit: maxAttempts * ADDRESS_FACTOR });
    return list;
  }

  /** Throws 429 while any of the keys is locked. */
  async assertAllowed(keys: ThrottleKeys): Promise<void> {
    if (!this.settings.enabled) return;
    const names = this.keysOf(keys).map(({ key }) => key);
    if (names.length === 0) return;
    const rows: { wait_ms: string }[] = await this.dataSource.query(
      `SELECT max(EXTRACT(EPOCH FROM (locked_until - now())) * 1000)::bigint AS wait_ms
       FROM login_attempts WHERE key = ANY($1) AND locked_until > now()`,
      [names],
    );
    const waitMs = Number(rows[0]?.wait_ms ?? 0);
    if (waitMs > 0) throw new TooManyAttemptsException(Math.ceil(waitMs / 1000));
  }

  async recordFailure(keys: ThrottleKeys): Promise<void> {
    if (!this.settings.enabled) return;
    const { windowMs, baseBackoffMs, maxBackoffMs } = this.settings;
    // A gap longer than the window starts the count again; SET expressions see the old row.
    const stale = `login_attempts.updated_at < now() - make_interval(secs => $3 / 1000.0)`;
    const failures = `CASE WHEN ${stale} THEN 1 ELSE login_attempts.failures + 1 END`;
    for (const { key, limit } of this.keysOf(keys)) {
      await this.dataSource.query(
        `INSERT INTO login_attempts (key, failures, window_started_at, locked_until, updated_at)
         VALUES ($1, 1, now(),
                 CASE WHEN $2 <= 1 THEN now() + make_interval(secs => $4 / 1000.0) END, now())
         ON CONFLICT (key) DO UPDATE SET
           failures = ${failures},
           window_started_at = CASE WHEN ${stale} THEN now() ELSE login_attempts.window_started_at END,
           locked_until = CASE WHEN ${failures} >= $2
             THEN now() + make_interval(secs => least($4 * power(2, ${failures} - $2), $5) / 1000.0)
             ELSE login_attempts.locked_until END,
           updated_at = now()`,
        [key, limit, windowMs, baseBackoffMs, maxBackoffMs],
      );
    }
  }

  async recordSuccess(keys: ThrottleKeys): Promise<void> {
    if (!this.settings.enabled) return;
    const names = this.keysOf(keys).map(({ key }) => key);
    await this.dataSource.query(
      `DELETE FROM login_attempts WHERE key = ANY($1) OR updated_at < now() - interval '1 day'`,
      [names],
    );
  }
}
