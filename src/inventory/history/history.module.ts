import { Module } from '@nestjs/common';
import { EntityCoreModule } from '../entities/core/entities.module.js';
import { EntityHistoryRepository } from './entity-history.repository.js';
import { EntityHistoryService } from './entity-history.service.js';
import { AuditController, EntityHistoryController } from './history.controller.js';

/** The change history of entities: what the database records, read and purged. */
@Module({
  imports: [EntityCoreModule],
  controllers: [EntityHistoryController, AuditController],
  providers: [EntityHistoryRepository, EntityHistoryService],
  exports: [EntityHistoryService],
})
export class HistoryModule {}
