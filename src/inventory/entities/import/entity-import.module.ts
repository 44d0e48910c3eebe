import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { MulterModule } from '@nestjs/platform-express';
import type { TroveConfig } from '../../../platform/config/configuration.js';
import { stagedUploadOptions } from '../../../platform/http/upload/staged-upload.options.js';
import { EntityTypesModule } from '../../entity-types/entity-types.module.js';
import { TagsModule } from '../../tags/tags.module.js';
import { EntityImportController } from './entity-import.controller.js';
import { EntityImportRepository } from './entity-import.repository.js';
import { EntityImportService } from './entity-import.service.js';

/** Form fields an import may carry besides the file (the file alone is expected). */
const MAX_FORM_FIELDS = 4;

/**
 * Entities from a Homebox CSV file (`POST /entities/import`), checked whole and then written all
 * or nothing. The file is staged on disk as attachments are.
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
  controllers: [EntityImportController],
  providers: [EntityImportService, EntityImportRepository],
})
export class EntityImportModule {}
