import path from 'node:path';
import { Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../config/configuration.js';
import { LocalDiskStorage } from './local-disk.storage.js';
import { Storage } from './storage.js';

/** The storage `TROVE_STORAGE_DRIVER` names: local disk under the data directory, or S3. */
export async function createStorage(
  settings: TroveConfig['storage'],
  dataDir: string,
): Promise<Storage> {
  if (settings.driver === 's3') {
    // Imported only for S3: the AWS SDK is a large part of a process's memory.
    const { S3Storage } = await import('./s3.storage.js');
    return new S3Storage(settings.s3);
  }
  const storage = new LocalDiskStorage(path.join(dataDir, 'attachments'));
  await storage.init();
  return storage;
}

/**
 * Where attachment files live: the configured `Storage` (local disk or S3). The files' use by
 * attachment rows is the attachments module's (`StoredFilesService`).
 */
@Global()
@Module({
  providers: [
    {
      provide: Storage,
      inject: [ConfigService],
      useFactory: (config: ConfigService<TroveConfig, true>) =>
        createStorage(
          config.get('storage', { infer: true }),
          config.get('dataDir', { infer: true }),
        ),
    },
  ],
  exports: [Storage],
})
export class StorageModule implements OnApplicationShutdown {
  constructor(private readonly storage: Storage) {}

  onApplicationShutdown(): void {
    this.storage.close();
  }
}
