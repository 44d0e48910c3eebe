import { Module } from '@nestjs/common';
import { AttachmentsModule } from '../attachments/attachments.module.js';
import { EntityCoreModule } from '../entities/core/entities.module.js';
import { EntityViewsModule } from '../entities/views/entity-views.module.js';
import { MaintenanceModule } from '../maintenance/maintenance.module.js';
import { StockModule } from '../stock/stock.module.js';
import { StoredFilesModule } from '../stored-files/stored-files.module.js';
import { TagsModule } from '../tags/tags.module.js';
import { AttachmentActionsController } from './attachment-actions.controller.js';
import { EntityActionsController } from './entity-actions.controller.js';
import { EntityDuplicatesController } from './entity-duplicates.controller.js';
import { EntityActionsService } from './entity-actions.service.js';
import { EntityDuplicatesService } from './entity-duplicates.service.js';

/**
 * What acts on an entity together with what other modules keep for it, or on the whole
 * inventory of a group: Homebox's `/actions` (asset ids, import refs, dates, wiping the
 * inventory, primary photos, missing thumbnails) and the duplicate of an entity. It sits above
 * entities, attachments, maintenance and stock, and writes their tables through their services.
 */
@Module({
  imports: [
    EntityCoreModule,
    EntityViewsModule,
    AttachmentsModule,
    MaintenanceModule,
    StockModule,
    StoredFilesModule,
    TagsModule,
  ],
  controllers: [EntityActionsController, AttachmentActionsController, EntityDuplicatesController],
  providers: [EntityActionsService, EntityDuplicatesService],
})
export class ActionsModule {}
