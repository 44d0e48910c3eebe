import { Module } from '@nestjs/common';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { EntityTypeRepository } from './entity-type.repository.js';
import { EntityTypesController } from './entity-types.controller.js';
import { EntityTypesService } from './entity-types.service.js';

/** Entity types: icon, location flag and default template; a new group's "Item" and "Location". */
@Module({
  imports: [GroupsModule],
  controllers: [EntityTypesController],
  providers: [EntityTypesService, EntityTypeRepository],
  exports: [EntityTypesService],
})
export class EntityTypesModule {}
