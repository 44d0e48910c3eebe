import { Module } from '@nestjs/common';
import { AdminModule } from '../../identity/admin/admin.module.js';
import { InstanceBackupRepository } from './instance-backup.repository.js';
import { InstanceBackupsController } from './instance-backups.controller.js';
import { InstanceBackupsService } from './instance-backups.service.js';

/**
 * Backups of the whole instance, on a schedule and by `npm run backup`, listed for the instance
 * administrators; `npm run restore` and `npm run backup -- --verify` use its reader.
 */
@Module({
  imports: [AdminModule],
  controllers: [InstanceBackupsController],
  providers: [InstanceBackupsService, InstanceBackupRepository],
  exports: [InstanceBackupsService],
})
export class InstanceBackupsModule {}
