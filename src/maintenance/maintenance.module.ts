import { forwardRef, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EntitiesModule } from '../entities/entities.module.js';
import { EntityMaintenanceController, MaintenanceController } from './maintenance.controller.js';
import { MaintenanceEntryRecord } from './maintenance-entry.record.js';
import { MaintenanceEntryRepository } from './maintenance-entry.repository.js';
import { MaintenanceService } from './maintenance.service.js';

/**
 * Maintenance entries of entities. It and EntitiesModule import each other: entries check
 * their entity, and a duplicated entity copies its entries.
 */
@Module({
  imports: [TypeOrmModule.forFeature([MaintenanceEntryRecord]), forwardRef(() => EntitiesModule)],
  controllers: [EntityMaintenanceController, MaintenanceController],
  providers: [MaintenanceService, MaintenanceEntryRepository],
  exports: [MaintenanceService],
})
export class MaintenanceModule {}
