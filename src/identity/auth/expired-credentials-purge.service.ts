import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../platform/jobs/job-queue.js';
import { LoginAttemptRepository } from './login-attempt.repository.js';
import { SessionRepository } from './session.repository.js';

/** The hourly purge, a scheduled job (once across instances). */
export const CREDENTIALS_PURGE_JOB = 'credentials.purge';

/** A delete that the hourly purge runs besides its own; it returns how many rows went. */
export type PurgeTask = () => Promise<number>;

/**
 * Once an hour, deletes what can no longer be used: expired sessions and sign-in failure counts
 * older than a day, plus what other modules register (the groups module: invitations that
 * expired or were used up; the password resets: expired reset links). It runs as a scheduled
 * job of the job queue, on one instance at a time; a failed purge is retried and recorded there.
 */
@Injectable()
export class ExpiredCredentialsPurgeService implements OnModuleInit {
  private readonly logger = new Logger('ExpiredCredentialsPurge');
  private readonly tasks = new Map<string, PurgeTask>();

  constructor(
    private readonly sessions: SessionRepository,
    private readonly attempts: LoginAttemptRepository,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register({
      name: CREDENTIALS_PURGE_JOB,
      retryLimit: 2,
      schedule: { cron: '7 * * * *', data: {} },
      handle: async () => {
        await this.purge();
      },
    });
  }

  /** Adds a delete of another module's rows to every purge, its count reported as `name`. */
  register(name: string, task: PurgeTask): void {
    this.tasks.set(name, task);
  }

  /** Runs one purge; returns how many rows of each kind went. */
  async purge(): Promise<Record<string, number>> {
    const tasks: [string, PurgeTask][] = [
      ['tokens', () => this.sessions.deleteExpired()],
      ['attempts', () => this.attempts.deleteStale()],
      ...this.tasks,
    ];
    const counts = await Promise.all(tasks.map(([, task]) => task()));
    const purged = Object.fromEntries(tasks.map(([name], index) => [name, counts[index]]));
    this.logger.debug(`purged ${JSON.stringify(purged)}`);
    return purged;
  }
}
