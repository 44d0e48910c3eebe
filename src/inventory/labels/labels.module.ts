import { Module } from '@nestjs/common';
import { EntityCoreModule } from '../entities/core/entities.module.js';
import { EntityViewsModule } from '../entities/views/entity-views.module.js';
import { LabelPrinterService } from './label-printer.service.js';
import { LabelsController, QrCodesController } from './labels.controller.js';
import { LabelsService } from './labels.service.js';

/** QR codes and entity labels (PNG), and printing labels with the configured command. */
@Module({
  imports: [EntityCoreModule, EntityViewsModule],
  controllers: [QrCodesController, LabelsController],
  providers: [LabelsService, LabelPrinterService],
})
export class LabelsModule {}
