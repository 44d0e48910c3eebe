import { Module } from '@nestjs/common';
import { EntityTypesModule } from '../../entity-types/entity-types.module.js';
import { StoredFilesModule } from '../../stored-files/stored-files.module.js';
import { TagsModule } from '../../tags/tags.module.js';
import { EntityCoreModule } from '../core/entities.module.js';
import { EntityBulkController } from './entity-bulk.controller.js';
import { EntityBulkRepository } from './entity-bulk.repository.js';
import { EntityBulkService } from './entity-bulk.service.js';

/** One change to up to 1000 entities at once (`POST /entities/bulk`), all or nothing. */
@Module({
  imports: [EntityCoreModule, TagsModule, EntityTypesModule, StoredFilesModule],
  controllers: [EntityBulkController],
  providers: [EntityBulkService, EntityBulkRepository],
  exports: [EntityBulkService],
})
export class EntityBulkModule {}
