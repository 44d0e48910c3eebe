import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { UsersModule } from '../users/users.module.js';
import { OidcAccountsService } from './oidc-accounts.service.js';
import { OidcLoginService } from './oidc-login.service.js';
import { OidcProviderService } from './oidc-provider.service.js';
import { OidcController } from './oidc.controller.js';

/** OpenID Connect single sign-on: the start and callback routes under /users/login/oidc. */
@Module({
  imports: [AuthModule, UsersModule, GroupsModule],
  controllers: [OidcController],
  providers: [OidcProviderService, OidcAccountsService, OidcLoginService],
})
export class OidcModule {}
