import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ExpiredCredentialsRepository } from './expired-credentials.repository.js';
import { LoginAttemptRepository } from './login-attempt.repository.js';
import { SessionRepository } from './session.repository.js';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Once an hour, deletes what can no longer be used: expired sessions, sign-in failure counts
 * older than a day, and invitations that expired or were used up. The deletes are idempotent,
 * so several instances may run them.
 */
@Injectable()
export class ExpiredCredentialsPurgeService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ExpiredCredentialsPurge');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly attempts: LoginAttemptRepository,
    private readonly expired: ExpiredCredentialsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Runs one purge; returns how many rows of each kind went. */
  async purge(): Promise<{ tokens: number; attempts: number; invitations: number }> {
    try {
      const [tokens, attempts, invitations] = await Promise.all([
        this.sessions.deleteExpired(),
        this.attempts.deleteStale(),
        this.expired.deleteDeadInvitations(),
      ]);
      const counts = { tokens, attempts, invitations };
      this.logger.debug(`purged ${JSON.stringify(counts)}`);
      return counts;
    } catch (error) {
      this.logger.warn(`purge failed: ${(error as Error).message}`);
      return { tokens: 0, attempts: 0, invitations: 0 };
    }
  }
}
