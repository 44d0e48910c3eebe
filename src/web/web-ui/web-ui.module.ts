import { Module } from '@nestjs/common';
import { AuthModule } from '../../identity/auth/auth.module.js';
import { AccountsModule } from '../../identity/accounts/accounts.module.js';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { UsersModule } from '../../identity/users/users.module.js';
import { BuiltInPages } from './built-in-pages.js';
import { WebUi } from './web-ui.js';

/**
 * The browser's way in at Trove's own address: the web UI directory's single-page app
 * (Homebox's web UI) or, without one, Trove's own sign-in and signed-in pages.
 */
@Module({
  imports: [AuthModule, UsersModule, GroupsModule, AccountsModule],
  providers: [BuiltInPages, WebUi],
  exports: [WebUi],
})
export class WebUiModule {}
