import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import type {
  BackupEntityFieldRow,
  BackupEntityRow,
  BackupEntityTagRow,
} from '../collection-backups/backup-format.js';
import {
  BACKUP_ENTITIES,
  BACKUP_ENTITY_FIELDS,
  BACKUP_ENTITY_TAGS,
  COUNT_ENTITIES,
  RESTORE_ENTITIES,
  RESTORE_ENTITY_FIELDS,
  RESTORE_ENTITY_PARENTS,
  RESTORE_ENTITY_TAGS,
} from './entity-backup.sql.js';

/** The reads and writes of the group's entities, fields and tag links for collection backups. */
@Injectable()
export class EntityBackupRepository {
  constructor(private readonly db: Database) {}

  /** A page of the group's entities as backup rows, by id after `afterId`. */
  backupPage(groupId: string, afterId: string, limit: number): Promise<BackupEntityRow[]> {
    return this.db.query<BackupEntityRow>(BACKUP_ENTITIES, [groupId, afterId, limit]);
  }

  /** A page of the custom fields of the group's entities, by id after `afterId`. */
  backupFieldsPage(
    groupId: string,
    afterId: string,
    limit: number,
  ): Promise<BackupEntityFieldRow[]> {
    return this.db.query<BackupEntityFieldRow>(BACKUP_ENTITY_FIELDS, [groupId, afterId, limit]);
  }

  /** A page of the tag links of the group's entities, after the link `after`. */
  backupTagsPage(
    groupId: string,
    after: BackupEntityTagRow,
    limit: number,
  ): Promise<BackupEntityTagRow[]> {
    return this.db.query<BackupEntityTagRow>(BACKUP_ENTITY_TAGS, [
      groupId,
      after.entity_id,
      after.tag_id,
      limit,
    ]);
  }

  /** Inserts backup rows, ids remapped with `idKey`, without parents. */
  async restore(groupId: string, idKey: string, rows: BackupEntityRow[]): Promise<void> {
    await this.db.query(RESTORE_ENTITIES, [JSON.stringify(rows), idKey, groupId]);
  }

  /** Sets the parents of restored rows. */
  async restoreParents(groupId: string, idKey: string, rows: BackupEntityRow[]): Promise<void> {
    const links = rows
      .filter((row) => row.parent_id !== null && row.parent_id !== undefined)
      .map((row) => ({ id: row.id, parent_id: row.parent_id }));
    if (links.length > 0) {
      await this.db.query(RESTORE_ENTITY_PARENTS, [JSON.stringify(links), idKey, groupId]);
    }
  }

  async restoreFields(groupId: string, idKey: string, rows: BackupEntityFieldRow[]): Promise<void> {
    await this.db.query(RESTORE_ENTITY_FIELDS, [JSON.stringify(rows), idKey, groupId]);
  }

  async restoreTags(groupId: string, idKey: string, rows: BackupEntityTagRow[]): Promise<void> {
    await this.db.query(RESTORE_ENTITY_TAGS, [JSON.stringify(rows), idKey, groupId]);
  }

  async countOfGroup(groupId: string): Promise<{ locations: number; items: number }> {
    const [row] = await this.db.query<{ locations: number; items: number }>(COUNT_ENTITIES, [
      groupId,
    ]);
    return row;
  }
}
