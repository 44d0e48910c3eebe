import { Module } from '@nestjs/common';
import { CheckoutsModule } from '../../inventory/checkouts/checkouts.module.js';
import { EntitiesModule } from '../../inventory/entities/core/entities.module.js';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { MaintenanceModule } from '../../inventory/maintenance/maintenance.module.js';
import { NotifiersModule } from '../notifiers/notifiers.module.js';
import { StockModule } from '../../inventory/stock/stock.module.js';
import { RemindersRepository } from './reminders.repository.js';
import { RemindersService } from './reminders.service.js';

/**
 * Daily reminders of due maintenance, ending warranties, expiring stock and overdue check-outs,
 * sent through notifiers.
 */
@Module({
  imports: [
    CheckoutsModule,
    EntitiesModule,
    GroupsModule,
    MaintenanceModule,
    NotifiersModule,
    StockModule,
  ],
  providers: [RemindersService, RemindersRepository],
})
export class RemindersModule {}
