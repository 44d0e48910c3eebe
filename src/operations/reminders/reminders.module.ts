import { Module } from '@nestjs/common';
import { CheckoutsModule } from '../../inventory/checkouts/checkouts.module.js';
import { EntityCoreModule } from '../../inventory/entities/core/entities.module.js';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { MaintenanceModule } from '../../inventory/maintenance/maintenance.module.js';
import { NotifiersModule } from '../notifiers/notifiers.module.js';
import { StockModule } from '../../inventory/stock/stock.module.js';
import { RemindersRepository } from './reminders.repository.js';
import { RemindersService } from './reminders.service.js';
import { StockAlertsService } from './stock-alerts.service.js';

/**
 * What Trove tells a group through its notifiers: the daily reminders of due maintenance, ending
 * warranties, expiring stock and overdue check-outs, and the low-stock alerts as they happen.
 */
@Module({
  imports: [
    CheckoutsModule,
    EntityCoreModule,
    GroupsModule,
    MaintenanceModule,
    NotifiersModule,
    StockModule,
  ],
  providers: [RemindersService, StockAlertsService, RemindersRepository],
})
export class RemindersModule {}
