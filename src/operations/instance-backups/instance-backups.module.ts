import { Module } from '@nestjs/common';
import { InstanceBackupsService } from './instance-backups.service.js';

/** Backups of the whole instance on a schedule; `npm run backup` and `restore` use its parts. */
@Module({
  providers: [InstanceBackupsService],
  exports: [InstanceBackupsService],
})
export class InstanceBackupsModule {}
