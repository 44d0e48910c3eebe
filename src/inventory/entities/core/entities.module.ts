import { Module } from '@nestjs/common';
import { GroupsModule } from '../../../identity/groups/groups.module.js';
import { EntityTypesModule } from '../../entity-types/entity-types.module.js';
import { TagsModule } from '../../tags/tags.module.js';
import { EntitiesService } from './entities.service.js';
import { EntityFieldRepository } from './entity-field.repository.js';
import { EntityRepository } from './entity.repository.js';

/**
 * Entities themselves: items, and locations or containers when their type says so. Their
 * records, the rules of their fields (input DTOs, asset ids, custom field types), a new
 * collection's starter locations, and `EntitiesService`, through which the other sub-modules and
 * every other module find, insert and change entities.
 */
@Module({
  imports: [GroupsModule, TagsModule, EntityTypesModule],
  providers: [EntitiesService, EntityRepository, EntityFieldRepository],
  // The repositories are for the other sub-modules of entities (edits); other modules use the service.
  exports: [EntitiesService, EntityRepository, EntityFieldRepository],
})
export class EntityCoreModule {}
