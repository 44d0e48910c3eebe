import { Module } from '@nestjs/common';
import { EntityCoreModule } from '../entities/core/entities.module.js';
import { EntityTypesModule } from '../entity-types/entity-types.module.js';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { TagsModule } from '../tags/tags.module.js';
import { TemplatesController } from './templates.controller.js';
import { TemplateRepository } from './template.repository.js';
import { TemplatesService } from './templates.service.js';

/** Templates and their fields, and creating entities from them. */
@Module({
  imports: [EntityCoreModule, TagsModule, EntityTypesModule, GroupsModule],
  controllers: [TemplatesController],
  providers: [TemplatesService, TemplateRepository],
  exports: [TemplatesService],
})
export class TemplatesModule {}
