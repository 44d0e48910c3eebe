import path from 'node:path';
import { forwardRef, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { MulterModule } from '@nestjs/platform-express';
import type { TroveConfig } from '../config/configuration.js';
import { EntitiesModule } from '../entities/entities.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { AttachmentActionsController } from './attachment-actions.controller.js';
import { AttachmentDownloadsService } from './attachment-downloads.service.js';
import { AttachmentRepository } from './attachment.repository.js';
import { AttachmentsController } from './attachments.controller.js';
import { AttachmentsService } from './attachments.service.js';
import { ThumbnailsService } from './thumbnails.service.js';
import { StoredFileRepository } from './stored-file.repository.js';
import { StoredFilesService } from './stored-files.service.js';
import { StagedUploadEngine } from './upload/staged-upload.engine.js';

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
    forwardRef(() => EntitiesModule),
    MulterModule.registerAsync({
      inject: [ConfigService],
      useFactory: async (config: ConfigService<TroveConfig, true>) => {
        const engine = new StagedUploadEngine(
          path.join(config.get('dataDir', { infer: true }), 'tmp', 'uploads'),
        );
        await engine.init();
        return {
          storage: engine,
          limits: {
            fileSize: config.get('web', { infer: true }).maxUploadBytes,
            files: 1,
            fields: MAX_FORM_FIELDS,
            fieldSize: 64 * 1024,
            parts: MAX_FORM_FIELDS + 1,
          },
        };
      },
    }),
  ],
  controllers: [AttachmentsController, AttachmentActionsController],
  providers: [
    AttachmentsService,
    AttachmentDownloadsService,
    ThumbnailsService,
    AttachmentRepository,
    StoredFilesService,
    StoredFileRepository,
  ],
  exports: [AttachmentsService, ThumbnailsService, StoredFilesService],
})
export class AttachmentsModule {}
