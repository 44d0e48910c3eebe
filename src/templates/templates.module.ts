import { Module } from '@nestjs/common';
import { EntitiesModule } from '../entities/entities.module.js';
import { EntityTypesModule } from '../entity-types/entity-types.module.js';
import { TagsModule } from '../tags/tags.module.js';
import { TemplatesController } from './templates.controller.js';
import { TemplatesService } from './templates.service.js';

/** Templates and their fields, and creating entities from them. */
@Module({
  imports: [EntitiesModule, TagsModule, EntityTypesModule],
  controllers: [TemplatesController],
  providers: [TemplatesService],
  exports: [TemplatesService],
})
export class TemplatesModule {}
