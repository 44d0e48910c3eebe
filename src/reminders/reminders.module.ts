import { Module } from '@nestjs/common';
import { EntitiesModule } from '../entities/entities.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { MaintenanceModule } from '../maintenance/maintenance.module.js';
import { NotifiersModule } from '../notifiers/notifiers.module.js';
import { RemindersRepository } from './reminders.repository.js';
import { RemindersService } from './reminders.service.js';

/** Daily reminders of due maintenance and ending warranties, sent through notifiers. */
@Module({
  imports: [EntitiesModule, GroupsModule, MaintenanceModule, NotifiersModule],
  providers: [RemindersService, RemindersRepository],
})
export class RemindersModule {}
