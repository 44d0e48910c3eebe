import { forwardRef, Module } from '@nestjs/common';
import { AttachmentsModule } from '../attachments/attachments.module.js';
import { EntityTypesModule } from '../entity-types/entity-types.module.js';
import { MaintenanceModule } from '../maintenance/maintenance.module.js';
import { TagsModule } from '../tags/tags.module.js';
import { AssetsController, EntitiesController } from './entities.controller.js';
import { EntitiesService } from './entities.service.js';
import { EntityDuplicatesService } from './entity-duplicates.service.js';
import { EntityRepository } from './entity.repository.js';
import { EntityViewsService } from './entity-views.service.js';

/**
 * Entities: items, and locations or containers when their type says so. It and the
 * maintenance and attachments modules import each other: they check their entity, and a
 * duplicated entity copies their rows.
 */
@Module({
  imports: [
    TagsModule,
    EntityTypesModule,
    forwardRef(() => MaintenanceModule),
    forwardRef(() => AttachmentsModule),
  ],
  controllers: [EntitiesController, AssetsController],
  providers: [EntitiesService, EntityViewsService, EntityDuplicatesService, EntityRepository],
  exports: [EntitiesService, EntityViewsService],
})
export class EntitiesModule {}
