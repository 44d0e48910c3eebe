import path from 'node:path';
import type { ConfigService } from '@nestjs/config';
import type { MulterModuleOptions } from '@nestjs/platform-express';
import type { TroveConfig } from '../../config/configuration.js';
import { StagedUploadEngine } from './staged-upload.engine.js';

/**
 * multer's options for a module that receives one uploaded file: staged on disk under
 * `<TROVE_DATA_DIR>/tmp/uploads` (never held in memory), at most `TROVE_WEB_MAX_UPLOAD_SIZE`,
 * with at most `maxFields` other form fields.
 */
export async function stagedUploadOptions(
  config: ConfigService<TroveConfig, true>,
  maxFields: number,
): Promise<MulterModuleOptions> {
  const engine = new StagedUploadEngine(
    path.join(config.get('dataDir', { infer: true }), 'tmp', 'uploads'),
  );
  await engine.init();
  return {
    storage: engine,
    limits: {
      fileSize: config.get('web', { infer: true }).maxUploadBytes,
      files: 1,
      fields: maxFields,
      fieldSize: 64 * 1024,
      parts: maxFields + 1,
    },
  };
}
