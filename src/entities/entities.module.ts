import { Module } from '@nestjs/common';
import { EntityTypesModule } from '../entity-types/entity-types.module.js';
import { TagsModule } from '../tags/tags.module.js';
import { AssetsController, EntitiesController } from './entities.controller.js';
import { EntitiesService } from './entities.service.js';
import { EntityViewsService } from './entity-views.service.js';
import { EntityRepository } from './entity.repository.js';

/** Entities: items, and locations or containers when their type says so. */
@Module({
  imports: [TagsModule, EntityTypesModule],
  controllers: [EntitiesController, AssetsController],
  providers: [EntitiesService, EntityViewsService, EntityRepository],
  exports: [EntitiesService, EntityViewsService],
})
export class EntitiesModule {}
