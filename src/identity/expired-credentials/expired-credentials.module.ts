import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { OidcModule } from '../oidc/oidc.module.js';
import { PasswordResetsModule } from '../password-resets/password-resets.module.js';
import { ExpiredCredentialsPurgeService } from './expired-credentials-purge.service.js';

/** The hourly purge of expired credentials, above the modules whose rows it deletes. */
@Module({
  imports: [AuthModule, GroupsModule, PasswordResetsModule, OidcModule],
  providers: [ExpiredCredentialsPurgeService],
})
export class ExpiredCredentialsModule {}
