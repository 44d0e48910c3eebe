import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EntitiesModule } from '../entities/entities.module.js';
import { EntityMaintenanceController, MaintenanceController } from './maintenance.controller.js';
import { MaintenanceEntryRecord } from './maintenance-entry.record.js';
import { MaintenanceService } from './maintenance.service.js';

/** Maintenance entries of entities. */
@Module({
  imports: [TypeOrmModule.forFeature([MaintenanceEntryRecord]), EntitiesModule],
  controllers: [EntityMaintenanceController, MaintenanceController],
  providers: [MaintenanceService],
  exports: [MaintenanceService],
})
export class MaintenanceModule {}
