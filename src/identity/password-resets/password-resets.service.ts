import { randomBytes } from 'node:crypto';
import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  Logger,
  type OnModuleInit,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import { LoginThrottleService } from '../auth/login-throttle.service.js';
import { PasswordsService } from '../auth/passwords.service.js';
import { SessionsService } from '../auth/sessions.service.js';
import { sha256 } from '../auth/sha256.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { JobQueue } from '../../platform/jobs/job-queue.js';
import { Mailer } from '../../platform/mail/mailer.js';
import {
  AccountDisabledException,
  LOCAL_LOGIN_DISABLED,
  normaliseEmail,
  UsersService,
} from '../users/users.service.js';
import type { UserRecord } from '../users/user.record.js';
import { passwordResetMail, resetLink, resetLinkBase } from './password-reset-mail.js';
import { PasswordResetRepository } from './password-reset.repository.js';

/** The queue reset mails are sent on; its jobs carry only the normalised address. */
export const PASSWORD_RESET_MAIL_JOB = 'users.password-reset-mail';

/** How long a reset link works. */
export const RESET_LINK_LIFETIME_MS = 60 * 60 * 1000;

export const INVALID_RESET_LINK = 'password reset link is invalid or has expired';

/** Throttle scopes: forgot-password counts every request, reset-password its bad links. */
const FORGOT_SCOPE = 'forgot-password';
const RESET_SCOPE = 'reset-password';

interface ResetMailJob {
  email: string;
}

/** Why the operator command could not make a link. */
export class ResetLinkRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResetLinkRefused';
  }
}

/**
 * Password reset by e-mail. A request answers the same for every address and only queues a job;
 * the job's worker mails a link (`<TROVE_OPTIONS_HOSTNAME>/reset-password?token=...`) to a user
 * with a local password, when mail and the hostname are configured. A link works once, for an
 * hour; a newer link replaces the older unused ones, and a used one voids the rest. Only the
 * SHA-256 of a link's secret is stored. Setting a password through a link ends every session
 * (and attachment token) of the user; API keys stay, as with a password change.
 */
@Injectable()
export class PasswordResetsService implements OnModuleInit {
  private readonly logger = new Logger('PasswordResets');

  constructor(
    private readonly resets: PasswordResetRepository,
    private readonly users: UsersService,
    private readonly passwords: PasswordsService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    private readonly mailer: Mailer,
    private readonly jobs: JobQueue,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /** Deletes the reset links that expired; how many (the hourly purge). */
  deleteExpired(): Promise<number> {
    return this.resets.deleteExpired();
  }

  onModuleInit(): void {
    this.jobs.register<ResetMailJob>({
      name: PASSWORD_RESET_MAIL_JOB,
      retryLimit: 3,
      retryDelaySeconds: 30,
      handle: ({ email }) => this.mailLink(email),
    });
  }

  private get options(): TroveConfig['options'] {
    return this.config.get('options', { infer: true });
  }

  /** Refuses (403) in demo mode and when local login is off. */
  private assertEnabled(): void {
    if (this.options.demo) throw new ForbiddenException('not allowed in demo mode');
    if (!this.options.allowLocalLogin) throw new ForbiddenException(LOCAL_LOGIN_DISABLED);
  }

  /**
   * Queues the mail of a reset link for `email`, whoever has it (or no one): the request does
   * the same work for every address. Every request counts towards the throttle of the address
   * and of the client.
   */
  async requestReset(email: string, clientAddress: string | undefined): Promise<void> {
    this.assertEnabled();
    const address = normaliseEmail(email);
    const keys = { scope: FORGOT_SCOPE, account: address, address: clientAddress };
    await this.throttle.assertAllowed(keys);
    await this.throttle.recordFailure(keys);
    await this.jobs.send<ResetMailJob>(PASSWORD_RESET_MAIL_JOB, { email: address });
  }

  /** The job: mails a new link to the user of `email` if they have a local password. */
  private async mailLink(email: string): Promise<void> {
    const base = resetLinkBase(this.options.hostname);
    if (base === null) {
      this.logger.warn('password reset requested, but TROVE_OPTIONS_HOSTNAME is not set');
      return;
    }
    if (!this.mailer.configured) {
      this.logger.warn('password reset requested, but mail is not configured');
      return;
    }
    const user = await this.localUser(email);
    if (!user) {
      this.logger.log('password reset requested for an address without a local account');
      return;
    }
    if (user.disabledAt) {
      this.logger.log(`password reset requested for disabled user ${user.id}; no link sent`);
      return;
    }
    const link = resetLink(base, await this.issue(user.id));
    await this.mailer.send({ to: user.email, ...passwordResetMail(user.name, link) });
    this.logger.log(`password reset link mailed to user ${user.id}`);
  }

  /** The user of this address who signs in with a password, if any. */
  private async localUser(email: string): Promise<UserRecord | null> {
    const user = await this.users.findByEmail(email);
    return user && user.passwordHash !== null ? user : null;
  }

  /** Stores a new link for the user, replacing their unused ones; returns its secret. */
  @Transactional()
  private async issue(userId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.resets.deleteUnusedOfUser(userId);
    await this.resets.insert(userId, sha256(token), new Date(Date.now() + RESET_LINK_LIFETIME_MS));
    return token;
  }

  /**
   * A reset link for the operator command (no mail). Throws ResetLinkRefused when the hostname
   * is unset, local login is off, or no user with a local password has the address.
   */
  async createLink(email: string): Promise<string> {
    const base = resetLinkBase(this.options.hostname);
    if (base === null) {
      throw new ResetLinkRefused('TROVE_OPTIONS_HOSTNAME is not set; links need a public base URL');
    }
    if (this.options.demo) throw new ResetLinkRefused('passwords cannot be reset in demo mode');
    if (!this.options.allowLocalLogin) {
      throw new ResetLinkRefused('local login is not enabled (TROVE_OPTIONS_ALLOW_LOCAL_LOGIN)');
    }
    const user = await this.localUser(normaliseEmail(email));
    if (!user) throw new ResetLinkRefused(`no user with a password has the address ${email}`);
    if (user.disabledAt) throw new ResetLinkRefused(`the account of ${email} is disabled`);
    return resetLink(base, await this.issue(user.id));
  }

  /**
   * Sets a new password through a link, which is used up, and ends every session of its user.
   * An unknown, expired or used link is a 400 and counts towards the client's throttle; the
   * link of a disabled account is a 403 and stays unused.
   */
  async reset(token: string, password: string, clientAddress: string | undefined): Promise<void> {
    this.assertEnabled();
    const keys = { scope: RESET_SCOPE, address: clientAddress };
    await this.throttle.assertAllowed(keys);
    const passwordHash = await this.passwords.hash(password);
    if (!(await this.applyReset(sha256(token), passwordHash))) {
      await this.throttle.recordFailure(keys);
      throw new BadRequestException(INVALID_RESET_LINK);
    }
    await this.throttle.recordSuccess(keys);
  }

  /** Uses up the link and sets the password; false when the link cannot be used. */
  @Transactional()
  private async applyReset(tokenHash: Buffer, passwordHash: string): Promise<boolean> {
    const userId = await this.resets.consume(tokenHash);
    if (userId === null) return false;
    if ((await this.users.findById(userId))?.disabledAt) throw new AccountDisabledException();
    await this.users.setPasswordHash(userId, passwordHash);
    await this.resets.deleteUnusedOfUser(userId);
    await this.sessions.revokeAllForUser(userId);
    return true;
  }
}
