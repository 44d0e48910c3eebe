import { Module } from '@nestjs/common';
import { GroupsModule } from '../../identity/groups/groups.module.js';
import { StorageModule } from '../../platform/storage/storage.module.js';
import { StoredFileRepository } from './stored-file.repository.js';
import { StoredFilesService } from './stored-files.service.js';

/**
 * The files of attachments, stored once per content and deleted when no attachment uses them any
 * more: below entities and attachments alike, since deleting entities (one, in bulk, a wiped
 * inventory, a deleted group) releases their attachments' files.
 */
@Module({
  imports: [StorageModule, GroupsModule],
  providers: [StoredFilesService, StoredFileRepository],
  exports: [StoredFilesService],
})
export class StoredFilesModule {}
