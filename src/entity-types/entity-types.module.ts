import { Module } from '@nestjs/common';
import { EntityTypesController } from './entity-types.controller.js';
import { EntityTypesService } from './entity-types.service.js';

/** Entity types: icon, location flag and default template. */
@Module({
  controllers: [EntityTypesController],
  providers: [EntityTypesService],
  exports: [EntityTypesService],
})
export class EntityTypesModule {}
