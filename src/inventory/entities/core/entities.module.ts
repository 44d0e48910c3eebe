import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { MulterModule } from '@nestjs/platform-express';
import { stagedUploadOptions } from '../../../platform/http/upload/staged-upload.options.js';
import type { TroveConfig } from '../../../platform/config/configuration.js';
import { EntityTypesModule } from '../../entity-types/entity-types.module.js';
import { TagsModule } from '../../tags/tags.module.js';
import { AssetsController, EntitiesController } from './entities.controller.js';
import { EntitiesService } from './entities.service.js';
import { EntityActionsController } from '../../actions/entity-actions.controller.js';
import { EntityActionsService } from '../../actions/entity-actions.service.js';
import { EntityBulkService } from '../bulk/entity-bulk.service.js';
import { EntityDuplicatesService } from '../../actions/entity-duplicates.service.js';
import { EntityParts } from './entity-parts.js';
import { EntityActionRepository } from '../../actions/entity-action.repository.js';
import { EntityBulkRepository } from '../bulk/entity-bulk.repository.js';
import { EntityExportRepository } from '../export/entity-export.repository.js';
import { EntityFieldRepository } from './entity-field.repository.js';
import { EntityViewRepository } from '../views/entity-view.repository.js';
import { EntityRepository } from './entity.repository.js';
import { EntityImportRepository } from '../import/entity-import.repository.js';
import { EntityViewsService } from '../views/entity-views.service.js';
import { EntityExportsService } from '../export/entity-exports.service.js';
import { EntityImportService } from '../import/entity-import.service.js';
import { ReportingController } from '../export/reporting.controller.js';

/** Form fields an import may carry besides the file (the file alone is expected). */
const MAX_FORM_FIELDS = 4;

/**
 * Entities: items, and locations or containers when their type says so. The modules built on
 * entities (maintenance, stock, attachments) register with `EntityParts` what a duplicate copies,
 * a wipe deletes and a deletion releases of theirs. Entity views carry their attachments in the
 * shape `attachments/` here defines. A CSV file to import is staged on disk as attachments are.
 */
@Module({
  imports: [
    TagsModule,
    EntityTypesModule,
    MulterModule.registerAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<TroveConfig, true>) =>
        stagedUploadOptions(config, MAX_FORM_FIELDS),
    }),
  ],
  controllers: [EntitiesController, AssetsController, ReportingController, EntityActionsController],
  providers: [
    EntitiesService,
    EntityViewsService,
    EntityDuplicatesService,
    EntityImportService,
    EntityExportsService,
    EntityActionsService,
    EntityBulkService,
    EntityParts,
    EntityRepository,
    EntityActionRepository,
    EntityBulkRepository,
    EntityExportRepository,
    EntityFieldRepository,
    EntityImportRepository,
    EntityViewRepository,
  ],
  exports: [EntitiesService, EntityViewsService, EntityParts],
})
export class EntitiesModule {}
