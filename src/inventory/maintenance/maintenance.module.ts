import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EntityCoreModule } from '../entities/core/entities.module.js';
import { EntityMaintenanceController, MaintenanceController } from './maintenance.controller.js';
import { MaintenanceEntryRecord } from './maintenance-entry.record.js';
import { MaintenanceEntryRepository } from './maintenance-entry.repository.js';
import { MaintenanceService } from './maintenance.service.js';

/**
 * Maintenance entries of entities. Entries check their entity through EntityCoreModule; the
 * actions module copies them with a duplicate and deletes them with a wiped inventory.
 */
@Module({
  imports: [TypeOrmModule.forFeature([MaintenanceEntryRecord]), EntityCoreModule],
  controllers: [EntityMaintenanceController, MaintenanceController],
  providers: [MaintenanceService, MaintenanceEntryRepository],
  exports: [MaintenanceService],
})
export class MaintenanceModule {}
