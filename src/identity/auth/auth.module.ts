import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { ApiKeyRepository } from './api-key.repository.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';
import { AuthenticationGuard } from './guards/authentication.guard.js';
import { GroupAccessGuard } from './guards/group-access.guard.js';
import { IdentityRepository } from './identity.repository.js';
import { JwtStrategy } from './jwt.strategy.js';
import { LoginAttemptRepository } from './login-attempt.repository.js';
import { LoginThrottleService } from './login-throttle.service.js';
import { PasswordsService } from './passwords.service.js';
import { SelfSessionsController } from './self-sessions.controller.js';
import { ServerSecretRepository } from './server-secret.repository.js';
import { ServerSecretsService } from './server-secrets.service.js';
import { SessionRepository } from './session.repository.js';
import { SessionsService } from './sessions.service.js';
import { UpgradeAuthenticationService } from './upgrade-authentication.service.js';
import { VerifiedCredentials } from './verified-credentials.js';

/**
 * Tokens, API keys, passwords and sign-in throttling, and the two global guards: every route is
 * authenticated unless @Public(), and group routes admit only the roles they allow.
 */
@Module({
  imports: [PassportModule],
  controllers: [ApiKeysController, SelfSessionsController],
  providers: [
    ServerSecretsService,
    PasswordsService,
    IdentityRepository,
    ApiKeyRepository,
    SessionRepository,
    LoginAttemptRepository,
    ServerSecretRepository,
    VerifiedCredentials,
    SessionsService,
    ApiKeysService,
    LoginThrottleService,
    JwtStrategy,
    UpgradeAuthenticationService,
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_GUARD, useClass: GroupAccessGuard },
  ],
  exports: [
    VerifiedCredentials,
    SessionsService,
    ApiKeysService,
    UpgradeAuthenticationService,
    PasswordsService,
    LoginThrottleService,
    ServerSecretsService,
  ],
})
export class AuthModule {}
