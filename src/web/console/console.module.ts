import { InstanceBackupsModule } from '../../operations/instance-backups/instance-backups.module.js';
import { Module } from '@nestjs/common';
import { AccountsModule } from '../../identity/accounts/accounts.module.js';
import { AdminModule } from '../../identity/admin/admin.module.js';
import { AuthModule } from '../../identity/auth/auth.module.js';
import { CurrenciesModule } from '../../identity/currencies/currencies.module.js';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { UsersModule } from '../../identity/users/users.module.js';
import { CheckoutsModule } from '../../inventory/checkouts/checkouts.module.js';
import { EntityBulkModule } from '../../inventory/entities/bulk/entity-bulk.module.js';
import { EntityViewsModule } from '../../inventory/entities/views/entity-views.module.js';
import { HistoryModule } from '../../inventory/history/history.module.js';
import { StockModule } from '../../inventory/stock/stock.module.js';
import { TagsModule } from '../../inventory/tags/tags.module.js';
import { AccountController } from './account.controller.js';
import { AdminPagesController } from './admin.controller.js';
import { BulkController } from './bulk.controller.js';
import { ConsoleAssetsController } from './console-assets.controller.js';
import { ConsoleFrames } from './console-frames.service.js';
import { DeskController } from './desk.controller.js';
import { HistoryPageController } from './history.controller.js';
import { StockPagesController } from './stock.controller.js';

/**
 * Trove's console at `/console`: the organisation's own workflows in the browser (the check-out
 * desk, stock, history, bulk changes, administration), server-rendered pages over the same
 * services as the API.
 */
@Module({
  imports: [
    AuthModule,
    UsersModule,
    GroupsModule,
    AccountsModule,
    AdminModule,
    InstanceBackupsModule,
    CurrenciesModule,
    CheckoutsModule,
    EntityViewsModule,
    StockModule,
    HistoryModule,
    EntityBulkModule,
    TagsModule,
  ],
  controllers: [
    ConsoleAssetsController,
    DeskController,
    StockPagesController,
    HistoryPageController,
    BulkController,
    AdminPagesController,
    AccountController,
  ],
  providers: [ConsoleFrames],
})
export class ConsoleModule {}
