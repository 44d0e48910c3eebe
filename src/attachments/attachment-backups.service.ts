import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import type { BackupAttachmentRow } from '../collection-backups/backup-format.js';
import { AttachmentRepository, type AttachmentBackupRow } from './attachment.repository.js';
import { isStorageKey, StoredFilesService } from './stored-files.service.js';

/** An attachment row of a backup, with the storage key of its file (null for a link). */
export type AttachmentBackupEntry = BackupAttachmentRow & { key: string | null };

/**
 * The attachments side of collection backups: their rows as backup rows, and restored rows and
 * files stored the way uploads are (one file per group and content, under the same key).
 */
@Injectable()
export class AttachmentBackupsService {
  constructor(
    private readonly attachments: AttachmentRepository,
    private readonly storedFiles: StoredFilesService,
  ) {}

  /**
   * A page of the attachments of the group's entities, by id after `afterId`. A file is named by
   * the last segment of its key, which is unique among the group's keys.
   */
  async backupPage(
    groupId: string,
    afterId: string,
    limit: number,
  ): Promise<AttachmentBackupEntry[]> {
    const rows = await this.attachments.backupPage(groupId, afterId, limit);
    return rows.map(({ path, ...row }) => {
      const stored = isStorageKey(path);
      return {
        ...row,
        file: stored ? path.slice(path.lastIndexOf('/') + 1) : null,
        link: stored ? null : path,
        key: stored ? path : null,
      };
    });
  }

  /**
   * Stores a restored file in the group as an upload of the same bytes would be, and returns its
   * key. `open` is called twice: once to hash the bytes (the key is derived from them), once to
   * store them unless the group has that file already.
   */
  async storeFile(
    groupId: string,
    open: () => Promise<Readable>,
    contentType: string,
  ): Promise<string> {
    const hash = createHash('sha256');
    for await (const chunk of await open()) hash.update(chunk as Buffer);
    const key = `${groupId}/documents/${hash.update(groupId).digest('hex')}`;
    const body = await open();
    try {
      await this.storedFiles.transaction(() =>
        this.storedFiles.storeOnce(key, () => body, contentType || 'application/octet-stream'),
      );
    } finally {
      body.destroy();
    }
    return key;
  }

  /**
   * Collection restore, in the caller's unit of work: inserts the rows, ids remapped with
   * `idKey`, each file's row pointing at `keyOf(file)`; thumbnails are linked afterwards.
   */
  async restoreBackup(
    groupId: string,
    idKey: string,
    rows: BackupAttachmentRow[],
    keyOf: (file: string) => string,
  ): Promise<void> {
    const stored: AttachmentBackupRow[] = rows.map(({ file, link, ...row }) => ({
      ...row,
      path: file !== null && file !== undefined ? keyOf(file) : (link ?? ''),
    }));
    await this.attachments.restore(groupId, idKey, stored);
  }

  /** Collection restore: links photos to their thumbnails, once every row is in. */
  restoreBackupThumbnails(
    groupId: string,
    idKey: string,
    rows: BackupAttachmentRow[],
  ): Promise<void> {
    return this.attachments.restoreThumbnails(groupId, idKey, rows);
  }

  /** Keys of the group's files (before a wipe, to release them after). */
  keysOfGroup(groupId: string): Promise<string[]> {
    return this.storedFiles.keysOfGroup(groupId);
  }

  /** Deletes the files no attachment uses any more (once the open unit of work commits). */
  releaseUnused(keys: Iterable<string>): Promise<void> {
    return this.storedFiles.releaseUnused(keys);
  }
}
