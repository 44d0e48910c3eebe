import { Module } from '@nestjs/common';
import { EntityBulkModule } from './bulk/entity-bulk.module.js';
import { EntityCoreModule } from './core/entities.module.js';
import { EntityEditsModule } from './edits/entity-edits.module.js';
import { EntityExportModule } from './export/entity-export.module.js';
import { EntityImportModule } from './import/entity-import.module.js';
import { EntityViewsModule } from './views/entity-views.module.js';

/**
 * Entities, in sub-modules: `core` (the entities themselves, the rules of their fields and
 * `EntitiesService` for every other module), `views` (how they are read and shown), `edits` (the
 * API's writes of one entity), `bulk`, `import` and `export`.
 * The order of the imports is the order in which their routes are registered: the export's
 * `GET /entities/export` before the views' `GET /entities/{id}`, which would take `export` for an
 * id. The app imports this module before any module that imports a sub-module.
 */
@Module({
  imports: [
    EntityExportModule,
    EntityImportModule,
    EntityBulkModule,
    EntityViewsModule,
    EntityEditsModule,
    EntityCoreModule,
  ],
})
export class EntitiesModule {}
