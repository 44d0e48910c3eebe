import { Module } from '@nestjs/common';
import { EntityTypeRepository } from './entity-type.repository.js';
import { EntityTypesController } from './entity-types.controller.js';
import { EntityTypesService } from './entity-types.service.js';

/** Entity types: icon, location flag and default template. */
@Module({
  controllers: [EntityTypesController],
  providers: [EntityTypesService, EntityTypeRepository],
  exports: [EntityTypesService],
})
export class EntityTypesModule {}
