import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { LoginAttemptRepository } from './login-attempt.repository.js';
import { SessionRepository } from './session.repository.js';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** A delete that the hourly purge runs besides its own; it returns how many rows went. */
export type PurgeTask = () => Promise<number>;

/**
 * Once an hour, deletes what can no longer be used: expired sessions and sign-in failure counts
 * older than a day, plus what other modules register (the groups module: invitations that
 * expired or were used up). The deletes are idempotent, so several instances may run them.
 */
@Injectable()
export class ExpiredCredentialsPurgeService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ExpiredCredentialsPurge');
  private timer?: NodeJS.Timeout;
  private readonly tasks = new Map<string, PurgeTask>();

  constructor(
    private readonly sessions: SessionRepository,
    private readonly attempts: LoginAttemptRepository,
  ) {}

  /** Adds a delete of another module's rows to every purge, its count reported as `name`. */
  register(name: string, task: PurgeTask): void {
    this.tasks.set(name, task);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Runs one purge; returns how many rows of each kind went. */
  async purge(): Promise<Record<string, number>> {
    const tasks: [string, PurgeTask][] = [
      ['tokens', () => this.sessions.deleteExpired()],
      ['attempts', () => this.attempts.deleteStale()],
      ...this.tasks,
    ];
    try {
      const counts = await Promise.all(tasks.map(([, task]) => task()));
      const purged = Object.fromEntries(tasks.map(([name], index) => [name, counts[index]]));
      this.logger.debug(`purged ${JSON.stringify(purged)}`);
      return purged;
    } catch (error) {
      this.logger.warn(`purge failed: ${(error as Error).message}`);
      return Object.fromEntries(tasks.map(([name]) => [name, 0]));
    }
  }
}
