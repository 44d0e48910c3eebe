import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../platform/jobs/job-queue.js';
import { LoginThrottleService } from '../auth/login-throttle.service.js';
import { SessionsService } from '../auth/sessions.service.js';
import { GroupInvitationsService } from '../groups/group-invitations.service.js';
import { OidcLogoutService } from '../oidc/oidc-logout.service.js';
import { PasswordResetsService } from '../password-resets/password-resets.service.js';

/** The hourly purge, a scheduled job (once across instances). */
export const CREDENTIALS_PURGE_JOB = 'credentials.purge';

/**
 * Once an hour, deletes what can no longer be used: expired sessions, sign-in failure counts older
 * than a day, invitations that expired or were used up, expired reset links and the single sign-on
 * logout tokens that could no longer pass validation. Each module deletes its own rows; this one
 * sits above them and asks each. It runs as a scheduled job of the job queue, on one instance at a
 * time; a failed purge is retried and recorded there.
 */
@Injectable()
export class ExpiredCredentialsPurgeService implements OnModuleInit {
  private readonly logger = new Logger('ExpiredCredentialsPurge');

  constructor(
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    private readonly invitations: GroupInvitationsService,
    private readonly resets: PasswordResetsService,
    private readonly logout: OidcLogoutService,
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

  /** Runs one purge; returns how many rows of each kind went. */
  async purge(): Promise<Record<string, number>> {
    const [tokens, attempts, invitations, passwordResets, logoutTokens] = await Promise.all([
      this.sessions.deleteExpired(),
      this.throttle.deleteStale(),
      this.invitations.deleteDead(),
      this.resets.deleteExpired(),
      this.logout.deleteExpiredTokens(),
    ]);
    const purged = { tokens, attempts, invitations, passwordResets, logoutTokens };
    this.logger.debug(`purged ${JSON.stringify(purged)}`);
    return purged;
  }
}
