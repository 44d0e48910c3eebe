import path from 'node:path';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { MulterModule } from '@nestjs/platform-express';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AttachmentsModule } from '../../inventory/attachments/attachments.module.js';
import { StagedUploadEngine } from '../../platform/http/upload/staged-upload.engine.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { EntityCoreModule } from '../../inventory/entities/core/entities.module.js';
import { EntityTypesModule } from '../../inventory/entity-types/entity-types.module.js';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { NotifiersModule } from '../notifiers/notifiers.module.js';
import { StorageModule } from '../../platform/storage/storage.module.js';
import { TagsModule } from '../../inventory/tags/tags.module.js';
import { StoredFilesModule } from '../../inventory/stored-files/stored-files.module.js';
import { BackupRestorer } from './backup-restorer.js';
import { BackupWriter } from './backup-writer.js';
import { GroupExportRecord } from './group-export.record.js';
import { GroupExportRepository } from './group-export.repository.js';
import { GroupExportsController } from './group-exports.controller.js';
import { GroupExportsService } from './group-exports.service.js';
import { BackupTablesRepository } from './tables/backup-tables.repository.js';

/**
 * Collection backups ("group exports", Homebox §18): export and import jobs of whole
 * collections. The backup format and the reading and writing of every table it holds live here
 * (`tables/`), an exception to table ownership that sits above the modules owning those tables;
 * no module below imports this one. Uploaded zips are staged under `<TROVE_DATA_DIR>/tmp/backup-uploads`, never held
 * in memory, up to `TROVE_BACKUP_MAX_IMPORT_SIZE`.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([GroupExportRecord]),
    StorageModule,
    AttachmentsModule,
    StoredFilesModule,
    EntityCoreModule,
    EntityTypesModule,
    GroupsModule,
    NotifiersModule,
    TagsModule,
    MulterModule.registerAsync({
      inject: [ConfigService],
      useFactory: async (config: ConfigService<TroveConfig, true>) => {
        const engine = new StagedUploadEngine(
          path.join(config.get('dataDir', { infer: true }), 'tmp', 'backup-uploads'),
        );
        await engine.init();
        return {
          storage: engine,
          limits: {
            fileSize: config.get('backups', { infer: true }).maxImportBytes,
            files: 1,
            fields: 4,
            fieldSize: 1024,
            parts: 5,
          },
        };
      },
    }),
  ],
  controllers: [GroupExportsController],
  providers: [
    GroupExportsService,
    GroupExportRepository,
    BackupTablesRepository,
    BackupWriter,
    BackupRestorer,
  ],
  exports: [GroupExportsService],
})
export class CollectionBackupsModule {}
