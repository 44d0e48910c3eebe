import { Module } from '@nestjs/common';
import { EntityTypesModule } from '../../entity-types/entity-types.module.js';
import { StoredFilesModule } from '../../stored-files/stored-files.module.js';
import { TagsModule } from '../../tags/tags.module.js';
import { EntityCoreModule } from '../core/entities.module.js';
import { EntityViewsModule } from '../views/entity-views.module.js';
import { EntitiesController } from './entities.controller.js';
import { EntityEditsService } from './entity-edits.service.js';

/**
 * The writes of one entity through the API: create, replace (`PUT`), change (`PATCH`) and delete,
 * each answered with the entity's view.
 */
@Module({
  imports: [EntityCoreModule, EntityViewsModule, TagsModule, EntityTypesModule, StoredFilesModule],
  controllers: [EntitiesController],
  providers: [EntityEditsService],
})
export class EntityEditsModule {}
