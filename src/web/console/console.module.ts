import { Module } from '@nestjs/common';
import { AccountsModule } from '../../identity/accounts/accounts.module.js';
import { AdminModule } from '../../identity/admin/admin.module.js';
import { CurrenciesModule } from '../../identity/currencies/currencies.module.js';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { UsersModule } from '../../identity/users/users.module.js';
import { CheckoutsModule } from '../../inventory/checkouts/checkouts.module.js';
import { EntityViewsModule } from '../../inventory/entities/views/entity-views.module.js';
import { AdminPagesController } from './admin.controller.js';
import { ConsoleAssetsController } from './console-assets.controller.js';
import { ConsoleFrames } from './console-frames.service.js';
import { DeskController } from './desk.controller.js';

/**
 * Trove's console at `/console`: the organisation's own workflows in the browser (the check-out
 * desk, stock, history, bulk changes, administration), server-rendered pages over the same
 * services as the API.
 */
@Module({
  imports: [
    UsersModule,
    GroupsModule,
    AccountsModule,
    AdminModule,
    CurrenciesModule,
    CheckoutsModule,
    EntityViewsModule,
  ],
  controllers: [ConsoleAssetsController, DeskController, AdminPagesController],
  providers: [ConsoleFrames],
})
export class ConsoleModule {}
