import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { AccountsModule } from '../accounts/accounts.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { ScimModule } from '../scim/scim.module.js';
import { UsersModule } from '../users/users.module.js';
import { OidcAccountsService } from './oidc-accounts.service.js';
import { OidcLoginService } from './oidc-login.service.js';
import { OidcLogoutTokenRepository } from './oidc-logout-token.repository.js';
import { OidcLogoutService } from './oidc-logout.service.js';
import { OidcProviderService } from './oidc-provider.service.js';
import { OidcController } from './oidc.controller.js';

/**
 * OpenID Connect single sign-on (the start and callback routes under /users/login/oidc) and
 * logout driven by the provider (back-channel and RP-initiated logout).
 */
@Module({
  imports: [AuthModule, UsersModule, GroupsModule, AccountsModule, ScimModule],
  controllers: [OidcController],
  providers: [
    OidcProviderService,
    OidcAccountsService,
    OidcLoginService,
    OidcLogoutService,
    OidcLogoutTokenRepository,
  ],
  exports: [OidcLogoutService],
})
export class OidcModule {}
