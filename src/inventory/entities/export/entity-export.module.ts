import { Module } from '@nestjs/common';
import { EntityExportController } from './entity-export.controller.js';
import { EntityExportRepository } from './entity-export.repository.js';
import { EntityExportsService } from './entity-exports.service.js';
import { ReportingController } from './reporting.controller.js';

/** The group's entities as CSV, streamed: Homebox's export and the bill of materials. */
@Module({
  controllers: [EntityExportController, ReportingController],
  providers: [EntityExportsService, EntityExportRepository],
})
export class EntityExportModule {}
