import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EntitiesModule } from '../entities/core/entities.module.js';
import { NotifiersModule } from '../../operations/notifiers/notifiers.module.js';
import { EntityStockRecord } from './entity-stock.record.js';
import { EntityStockRepository } from './entity-stock.repository.js';
import { StockAlertsService } from './stock-alerts.service.js';
import { EntityStockController, StockController } from './stock.controller.js';
import { StockService } from './stock.service.js';

/** Stock levels and expiry of entities, their listings, and low-stock alerts through notifiers. */
@Module({
  imports: [TypeOrmModule.forFeature([EntityStockRecord]), EntitiesModule, NotifiersModule],
  controllers: [EntityStockController, StockController],
  providers: [StockService, StockAlertsService, EntityStockRepository],
  exports: [StockService],
})
export class StockModule {}
