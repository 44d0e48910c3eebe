import { Injectable } from '@nestjs/common';
import { isStorageKey } from '../../../inventory/stored-files/stored-files.service.js';
import { Database } from '../../../platform/database/database.js';
import type {
  BackupAttachmentRow,
  BackupCheckoutRow,
  BackupEntityFieldRow,
  BackupEntityRow,
  BackupEntityStockRow,
  BackupEntityTagRow,
  BackupEntityTypeRow,
  BackupMaintenanceEntryRow,
  BackupTagRow,
  BackupTemplateFieldRow,
  BackupTemplateRow,
} from '../backup-format.js';
import {
  BACKUP_ATTACHMENTS,
  RESTORE_ATTACHMENT_THUMBNAILS,
  RESTORE_ATTACHMENTS,
} from './attachments.sql.js';
import { BACKUP_CHECKOUTS, RESTORE_CHECKOUTS } from './checkouts.sql.js';
import {
  BACKUP_ENTITIES,
  BACKUP_ENTITY_FIELDS,
  BACKUP_ENTITY_TAGS,
  COUNT_ENTITIES,
  RESTORE_ENTITIES,
  RESTORE_ENTITY_FIELDS,
  RESTORE_ENTITY_PARENTS,
  RESTORE_ENTITY_TAGS,
} from './entities.sql.js';
import { BACKUP_ENTITY_STOCK, RESTORE_ENTITY_STOCK } from './entity-stock.sql.js';
import {
  BACKUP_ENTITY_TYPES,
  COUNT_ENTITY_TYPES,
  RESTORE_ENTITY_TYPES,
} from './entity-types.sql.js';
import {
  BACKUP_MAINTENANCE_ENTRIES,
  RESTORE_MAINTENANCE_ENTRIES,
} from './maintenance-entries.sql.js';
import { BACKUP_TAGS, COUNT_TAGS, RESTORE_TAG_PARENTS, RESTORE_TAGS } from './tags.sql.js';
import {
  BACKUP_TEMPLATE_FIELDS,
  BACKUP_TEMPLATES,
  COUNT_TEMPLATES,
  RESTORE_TEMPLATE_FIELDS,
  RESTORE_TEMPLATE_LOCATIONS,
  RESTORE_TEMPLATES,
} from './templates.sql.js';

/** An attachment row of a backup, with the storage key of its file (null for a link). */
export type AttachmentBackupEntry = BackupAttachmentRow & { key: string | null };

/** An attachment row as stored, with its `path` (a storage key or a link's URL). */
type StoredAttachmentRow = Omit<BackupAttachmentRow, 'file' | 'link'> & { path: string };

/**
 * The reads and writes of every table a collection backup holds (see backup-format.ts). Backups
 * are the one exception to table ownership besides the statistics: the format is one whole, so
 * its statements live here rather than in the modules that own those tables (see
 * docs/architecture.md). Every call joins the unit of work of the context (the export's snapshot,
 * the restore's transaction).
 *
 * Reading: a page of the group's rows after a keyset cursor, as backup rows. Writing: backup rows
 * inserted into the group, every id remapped with the restore's `idKey` (see backup.sql.ts);
 * references inside one table (parents, default locations, thumbnails) are set by a second
 * statement once every row of it is in.
 */
@Injectable()
export class BackupTablesRepository {
  constructor(private readonly db: Database) {}

  // Entity types.

  /** A page of the group's types, by id after `afterId`. */
  entityTypesPage(groupId: string, afterId: string, limit: number): Promise<BackupEntityTypeRow[]> {
    return this.db.query<BackupEntityTypeRow>(BACKUP_ENTITY_TYPES, [groupId, afterId, limit]);
  }

  /** Inserts types into the group (their templates are in already). */
  async restoreEntityTypes(
    groupId: string,
    idKey: string,
    rows: BackupEntityTypeRow[],
  ): Promise<void> {
    await this.db.query(RESTORE_ENTITY_TYPES, [JSON.stringify(rows), idKey, groupId]);
  }

  async countEntityTypes(groupId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(COUNT_ENTITY_TYPES, [groupId]);
    return row.n;
  }

  // Templates and their fields.

  /** A page of the group's templates, by id after `afterId`. */
  templatesPage(groupId: string, afterId: string, limit: number): Promise<BackupTemplateRow[]> {
    return this.db.query<BackupTemplateRow>(BACKUP_TEMPLATES, [groupId, afterId, limit]);
  }

  /** A page of the fields of the group's templates, by id after `afterId`. */
  templateFieldsPage(
    groupId: string,
    afterId: string,
    limit: number,
  ): Promise<BackupTemplateFieldRow[]> {
    return this.db.query<BackupTemplateFieldRow>(BACKUP_TEMPLATE_FIELDS, [groupId, afterId, limit]);
  }

  /** Inserts templates without their default locations. */
  async restoreTemplates(groupId: string, idKey: string, rows: BackupTemplateRow[]): Promise<void> {
    await this.db.query(RESTORE_TEMPLATES, [JSON.stringify(rows), idKey, groupId]);
  }

  /** Sets the default locations of restored templates, once the entities are in. */
  async restoreTemplateLocations(
    groupId: string,
    idKey: string,
    rows: BackupTemplateRow[],
  ): Promise<void> {
    const links = rows
      .filter((row) => row.default_location_id !== null && row.default_location_id !== undefined)
      .map((row) => ({ id: row.id, default_location_id: row.default_location_id }));
    if (links.length > 0) {
      await this.db.query(RESTORE_TEMPLATE_LOCATIONS, [JSON.stringify(links), idKey, groupId]);
    }
  }

  async restoreTemplateFields(
    groupId: string,
    idKey: string,
    rows: BackupTemplateFieldRow[],
  ): Promise<void> {
    await this.db.query(RESTORE_TEMPLATE_FIELDS, [JSON.stringify(rows), idKey, groupId]);
  }

  async countTemplates(groupId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(COUNT_TEMPLATES, [groupId]);
    return row.n;
  }

  // Tags.

  /** A page of the group's tags, by id after `afterId`. */
  tagsPage(groupId: string, afterId: string, limit: number): Promise<BackupTagRow[]> {
    return this.db.query<BackupTagRow>(BACKUP_TAGS, [groupId, afterId, limit]);
  }

  /** Inserts tags into the group without their parents. */
  async restoreTags(groupId: string, idKey: string, rows: BackupTagRow[]): Promise<void> {
    await this.db.query(RESTORE_TAGS, [JSON.stringify(rows), idKey, groupId]);
  }

  /** Sets the parents of restored tags, once every tag is in. */
  async restoreTagParents(groupId: string, idKey: string, rows: BackupTagRow[]): Promise<void> {
    const links = rows
      .filter((row) => row.parent_id !== null && row.parent_id !== undefined)
      .map((row) => ({ id: row.id, parent_id: row.parent_id }));
    if (links.length > 0) {
      await this.db.query(RESTORE_TAG_PARENTS, [JSON.stringify(links), idKey, groupId]);
    }
  }

  async countTags(groupId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(COUNT_TAGS, [groupId]);
    return row.n;
  }

  // Entities, their custom fields and tag links.

  /** A page of the group's entities, by id after `afterId`. */
  entitiesPage(groupId: string, afterId: string, limit: number): Promise<BackupEntityRow[]> {
    return this.db.query<BackupEntityRow>(BACKUP_ENTITIES, [groupId, afterId, limit]);
  }

  /** A page of the custom fields of the group's entities, by id after `afterId`. */
  entityFieldsPage(
    groupId: string,
    afterId: string,
    limit: number,
  ): Promise<BackupEntityFieldRow[]> {
    return this.db.query<BackupEntityFieldRow>(BACKUP_ENTITY_FIELDS, [groupId, afterId, limit]);
  }

  /** A page of the tag links of the group's entities, after the link `after`. */
  entityTagsPage(
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

  /** Inserts entities into the group without their parents. */
  async restoreEntities(groupId: string, idKey: string, rows: BackupEntityRow[]): Promise<void> {
    await this.db.query(RESTORE_ENTITIES, [JSON.stringify(rows), idKey, groupId]);
  }

  /** Sets the parents of restored entities, once every entity is in. */
  async restoreEntityParents(
    groupId: string,
    idKey: string,
    rows: BackupEntityRow[],
  ): Promise<void> {
    const links = rows
      .filter((row) => row.parent_id !== null && row.parent_id !== undefined)
      .map((row) => ({ id: row.id, parent_id: row.parent_id }));
    if (links.length > 0) {
      await this.db.query(RESTORE_ENTITY_PARENTS, [JSON.stringify(links), idKey, groupId]);
    }
  }

  async restoreEntityFields(
    groupId: string,
    idKey: string,
    rows: BackupEntityFieldRow[],
  ): Promise<void> {
    await this.db.query(RESTORE_ENTITY_FIELDS, [JSON.stringify(rows), idKey, groupId]);
  }

  async restoreEntityTags(
    groupId: string,
    idKey: string,
    rows: BackupEntityTagRow[],
  ): Promise<void> {
    await this.db.query(RESTORE_ENTITY_TAGS, [JSON.stringify(rows), idKey, groupId]);
  }

  /** The group's entities by kind. */
  async countEntities(groupId: string): Promise<{ locations: number; items: number }> {
    const [row] = await this.db.query<{ locations: number; items: number }>(COUNT_ENTITIES, [
      groupId,
    ]);
    return row;
  }

  // Maintenance entries.

  /** A page of the entries of the group's entities, by id after `afterId`. */
  maintenanceEntriesPage(
    groupId: string,
    afterId: string,
    limit: number,
  ): Promise<BackupMaintenanceEntryRow[]> {
    return this.db.query<BackupMaintenanceEntryRow>(BACKUP_MAINTENANCE_ENTRIES, [
      groupId,
      afterId,
      limit,
    ]);
  }

  async restoreMaintenanceEntries(
    groupId: string,
    idKey: string,
    rows: BackupMaintenanceEntryRow[],
  ): Promise<void> {
    await this.db.query(RESTORE_MAINTENANCE_ENTRIES, [JSON.stringify(rows), idKey, groupId]);
  }

  // Stock settings.

  /** A page of the group's stock settings, by entity id after `afterEntityId`. */
  entityStockPage(
    groupId: string,
    afterEntityId: string,
    limit: number,
  ): Promise<BackupEntityStockRow[]> {
    return this.db.query<BackupEntityStockRow>(BACKUP_ENTITY_STOCK, [
      groupId,
      afterEntityId,
      limit,
    ]);
  }

  /**
   * Inserts stock settings, after the entities: an entity already at or below its minimum is
   * stored as alerted, so restoring queues no low-stock alert.
   */
  async restoreEntityStock(
    groupId: string,
    idKey: string,
    rows: BackupEntityStockRow[],
  ): Promise<void> {
    await this.db.query(RESTORE_ENTITY_STOCK, [JSON.stringify(rows), idKey, groupId]);
  }

  // Check-outs.

  /** A page of the group's check-outs, by id after `afterId`. */
  checkoutsPage(groupId: string, afterId: string, limit: number): Promise<BackupCheckoutRow[]> {
    return this.db.query<BackupCheckoutRow>(BACKUP_CHECKOUTS, [groupId, afterId, limit]);
  }

  /**
   * Inserts check-outs, after the entities; users are kept only when among `memberIds` (the
   * group's members).
   */
  async restoreCheckouts(
    groupId: string,
    idKey: string,
    rows: BackupCheckoutRow[],
    memberIds: string[],
  ): Promise<void> {
    await this.db.query(RESTORE_CHECKOUTS, [JSON.stringify(rows), idKey, groupId, memberIds]);
  }

  // Attachments.

  /**
   * A page of the attachments of the group's entities, by id after `afterId`. A file is named by
   * the last segment of its key, which is unique among the group's keys.
   */
  async attachmentsPage(
    groupId: string,
    afterId: string,
    limit: number,
  ): Promise<AttachmentBackupEntry[]> {
    const rows = await this.db.query<StoredAttachmentRow>(BACKUP_ATTACHMENTS, [
      groupId,
      afterId,
      limit,
    ]);
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
   * Inserts attachments, each file's row pointing at `keyOf(file)`, without their thumbnails
   * (linked once every row is in).
   */
  async restoreAttachments(
    groupId: string,
    idKey: string,
    rows: BackupAttachmentRow[],
    keyOf: (file: string) => string,
  ): Promise<void> {
    const stored: StoredAttachmentRow[] = rows.map(({ file, link, ...row }) => ({
      ...row,
      path: file !== null && file !== undefined ? keyOf(file) : (link ?? ''),
    }));
    await this.db.query(RESTORE_ATTACHMENTS, [JSON.stringify(stored), idKey, groupId]);
  }

  /** Links restored photos to their thumbnails. */
  async restoreAttachmentThumbnails(
    groupId: string,
    idKey: string,
    rows: BackupAttachmentRow[],
  ): Promise<void> {
    const links = rows
      .filter((row) => row.thumbnail_id !== null && row.thumbnail_id !== undefined)
      .map((row) => ({ id: row.id, thumbnail_id: row.thumbnail_id }));
    if (links.length > 0) {
      await this.db.query(RESTORE_ATTACHMENT_THUMBNAILS, [JSON.stringify(links), idKey, groupId]);
    }
  }
}
