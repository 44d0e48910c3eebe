import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LoginThrottleService } from '../auth/login-throttle.service.js';
import { SessionsService, type IssuedSession } from '../auth/sessions.service.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { LOCAL_LOGIN_DISABLED, normaliseEmail, UsersService } from './users.service.js';
import { telemetry } from '../../platform/telemetry/telemetry.js';

/** What a sign-in with e-mail and password is given. */
export interface PasswordSignIn {
  email: string;
  password: string;
  /** A long session (28 days instead of 7). */
  remember: boolean;
  /** The client's address, for the throttle. */
  address: string | undefined;
}

/**
 * Local sign-in, shared by the API's login and Trove's own sign-in page: 403 while local login
 * is off, 429 (`TooManyAttemptsException`) while the account or address is throttled, 401 for
 * a wrong e-mail or password (counted), else a new session.
 */
@Injectable()
export class PasswordSignInService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  async signIn({ email, password, remember, address }: PasswordSignIn): Promise<IssuedSession> {
    if (!this.config.get('options', { infer: true }).allowLocalLogin) {
      throw new ForbiddenException(LOCAL_LOGIN_DISABLED);
    }
    const keys = { account: normaliseEmail(email), address };
    try {
      await this.throttle.assertAllowed(keys);
    } catch (error) {
      telemetry().count('trove.auth.throttled');
      telemetry().count('trove.auth.sign_ins', { outcome: 'throttled' });
      throw error;
    }
    let user;
    try {
      user = await this.users.verifyCredentials(email, password);
    } catch (error) {
      if (error instanceof UnauthorizedException) await this.throttle.recordFailure(keys);
      telemetry().count('trove.auth.sign_ins', { outcome: 'failure' });
      throw error;
    }
    await this.throttle.recordSuccess(keys);
    telemetry().count('trove.auth.sign_ins', { outcome: 'success' });
    return this.sessions.issue(user.id, { long: remember });
  }
}
