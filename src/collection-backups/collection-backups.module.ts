import path from 'node:path';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { MulterModule } from '@nestjs/platform-express';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AttachmentsModule } from '../attachments/attachments.module.js';
import { StagedUploadEngine } from '../common/upload/staged-upload.engine.js';
import { CheckoutsModule } from '../checkouts/checkouts.module.js';
import type { TroveConfig } from '../config/configuration.js';
import { EntitiesModule } from '../entities/entities.module.js';
import { EntityTypesModule } from '../entity-types/entity-types.module.js';
import { GroupsModule } from '../groups/groups.module.js';
import { MaintenanceModule } from '../maintenance/maintenance.module.js';
import { NotifiersModule } from '../notifiers/notifiers.module.js';
import { StockModule } from '../stock/stock.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { TagsModule } from '../tags/tags.module.js';
import { TemplatesModule } from '../templates/templates.module.js';
import { BackupRestorer } from './backup-restorer.js';
import { BackupWriter } from './backup-writer.js';
import { GroupExportRecord } from './group-export.record.js';
import { GroupExportRepository } from './group-export.repository.js';
import { GroupExportsController } from './group-exports.controller.js';
import { GroupExportsService } from './group-exports.service.js';

/**
 * Collection backups ("group exports", Homebox §18): export and import jobs of whole
 * collections. Uploaded zips are staged under `<TROVE_DATA_DIR>/tmp/backup-uploads`, never held
 * in memory, up to `TROVE_BACKUP_MAX_IMPORT_SIZE`.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([GroupExportRecord]),
    StorageModule,
    AttachmentsModule,
    CheckoutsModule,
    EntitiesModule,
    EntityTypesModule,
    GroupsModule,
    MaintenanceModule,
    NotifiersModule,
    StockModule,
    TagsModule,
    TemplatesModule,
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
  providers: [GroupExportsService, GroupExportRepository, BackupWriter, BackupRestorer],
  exports: [GroupExportsService],
})
export class CollectionBackupsModule {}
