import { Module } from '@nestjs/common';
import { AssetsController, EntityViewsController } from './entity-views.controller.js';
import { EntityViewRepository } from './entity-view.repository.js';
import { EntityViewsService } from './entity-views.service.js';

/**
 * How entities are shown: their views (spec §2.1) written as JSON by PostgreSQL, the list and its
 * filters, the tree of locations, paths and the custom-field names and values; the reads of
 * `/entities` and `/assets`. Other modules answer with an entity's view through
 * `EntityViewsService`.
 */
@Module({
  controllers: [EntityViewsController, AssetsController],
  providers: [EntityViewsService, EntityViewRepository],
  exports: [EntityViewsService],
})
export class EntityViewsModule {}
