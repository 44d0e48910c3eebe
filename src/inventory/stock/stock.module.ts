import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EntityCoreModule } from '../entities/core/entities.module.js';
import { EntityStockRecord } from './entity-stock.record.js';
import { EntityStockRepository } from './entity-stock.repository.js';
import { EntityStockController, StockController } from './stock.controller.js';
import { StockService } from './stock.service.js';

/**
 * Stock levels and expiry of entities, their listings, and the outbox of low-stock alerts the
 * database writes (sent by the reminders module, above, through notifiers).
 */
@Module({
  imports: [TypeOrmModule.forFeature([EntityStockRecord]), EntityCoreModule],
  controllers: [EntityStockController, StockController],
  providers: [StockService, EntityStockRepository],
  exports: [StockService],
})
export class StockModule {}
