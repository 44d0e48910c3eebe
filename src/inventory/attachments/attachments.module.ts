import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { MulterModule } from '@nestjs/platform-express';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { EntityCoreModule } from '../entities/core/entities.module.js';
import { EntityViewsModule } from '../entities/views/entity-views.module.js';
import { StorageModule } from '../../platform/storage/storage.module.js';
import { AttachmentDownloadsService } from './attachment-downloads.service.js';
import { AttachmentRepository } from './attachment.repository.js';
import { AttachmentsController } from './attachments.controller.js';
import { AttachmentsService } from './attachments.service.js';
import { ThumbnailsService } from './thumbnails.service.js';
import { StoredFilesModule } from '../stored-files/stored-files.module.js';
import { stagedUploadOptions } from '../../platform/http/upload/staged-upload.options.js';

/** Form fields besides the file: name, type, primary, and a few a client may add. */
const MAX_FORM_FIELDS = 8;

/**
 * Attachments, photos and thumbnails. Uploads are staged on disk under
 * `<TROVE_DATA_DIR>/tmp/uploads` (never held in memory) with multer's limits, then stored
 * through StorageModule, which this module brings into the application.
 */
@Module({
  imports: [
    StorageModule,
    StoredFilesModule,
    EntityCoreModule,
    EntityViewsModule,
    MulterModule.registerAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<TroveConfig, true>) =>
        stagedUploadOptions(config, MAX_FORM_FIELDS),
    }),
  ],
  controllers: [AttachmentsController],
  providers: [
    AttachmentsService,
    AttachmentDownloadsService,
    ThumbnailsService,
    AttachmentRepository,
  ],
  exports: [AttachmentsService, ThumbnailsService],
})
export class AttachmentsModule {}
