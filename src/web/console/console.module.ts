import { Module } from '@nestjs/common';
import { AccountsModule } from '../../identity/accounts/accounts.module.js';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { UsersModule } from '../../identity/users/users.module.js';
import { CheckoutsModule } from '../../inventory/checkouts/checkouts.module.js';
import { EntityViewsModule } from '../../inventory/entities/views/entity-views.module.js';
import { HistoryModule } from '../../inventory/history/history.module.js';
import { ConsoleAssetsController } from './console-assets.controller.js';
import { ConsoleFrames } from './console-frames.service.js';
import { DeskController } from './desk.controller.js';
import { HistoryPageController } from './history.controller.js';

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
    CheckoutsModule,
    EntityViewsModule,
    HistoryModule,
  ],
  controllers: [ConsoleAssetsController, DeskController, HistoryPageController],
  providers: [ConsoleFrames],
})
export class ConsoleModule {}
