import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { StoredFilesService } from '../../inventory/stored-files/stored-files.service.js';
import { readAssetId } from '../../inventory/entities/core/asset-id.js';
import { EntitiesService } from '../../inventory/entities/core/entities.service.js';
import { EntityTypesService } from '../../inventory/entity-types/entity-types.service.js';
import { GroupsService } from '../../identity/groups/groups.service.js';
import { NotifiersService } from '../notifiers/notifiers.service.js';
import { TagsService } from '../../inventory/tags/tags.service.js';
import {
  BACKUP_FILE_NAME,
  BACKUP_TABLES,
  BackupFormatError,
  type BackupRows,
  type BackupSource,
  type BackupTable,
} from './backup-format.js';
import { BACKUP_PAGE_SIZE, type ProgressReport } from './backup-writer.js';
import { GroupExportRepository } from './group-export.repository.js';
import { BackupTablesRepository } from './tables/backup-tables.repository.js';

/** What a collection may hold and still count as empty (Homebox §18): its seed data at most. */
export const EMPTY_COLLECTION_LIMITS = { items: 0, locations: 8, tags: 6, entityTypes: 2 };

/** Percent of the progress the files take; the rows take the rest. */
const FILES_SHARE = 60;

/** A restore into a collection that is not empty. */
export class CollectionNotEmptyError extends Error {
  constructor() {
    super('the collection is not empty: import into a new or empty collection');
  }
}

/** The columns that identify a row, for the tables whose rows have no `id`. */
const ROW_KEYS: Partial<Record<BackupTable, string[]>> = {
  entity_tags: ['entity_id', 'tag_id'],
  entity_stock: ['entity_id'],
};

/** SQLSTATE classes of errors caused by the data (22 data exception, 23 integrity violation). */
const DATA_ERROR = /^2[23]/;

/**
 * Restores a backup (any `BackupSource`) into a group. Files first, each stored as an upload of
 * it would be; then every row in one unit of work, which also wipes the group's seed rows, so a
 * restore is all or nothing. Every id is new (see tables/backup.sql.ts).
 */
@Injectable()
export class BackupRestorer {
  constructor(
    private readonly tables: BackupTablesRepository,
    private readonly entityTypes: EntityTypesService,
    private readonly tags: TagsService,
    private readonly entities: EntitiesService,
    private readonly groups: GroupsService,
    private readonly storedFiles: StoredFilesService,
    private readonly notifiers: NotifiersService,
    private readonly exports: GroupExportRepository,
  ) {}

  /** Whether the group holds no more than its seed data. */
  async isEmpty(groupId: string): Promise<boolean> {
    // One after the other: in a unit of work they share one connection.
    const entities = await this.tables.countEntities(groupId);
    const tags = await this.tables.countTags(groupId);
    const types = await this.tables.countEntityTypes(groupId);
    const templates = await this.tables.countTemplates(groupId);
    const notifiers = await this.notifiers.countOfGroup(groupId);
    return (
      entities.items <= EMPTY_COLLECTION_LIMITS.items &&
      entities.locations <= EMPTY_COLLECTION_LIMITS.locations &&
      tags <= EMPTY_COLLECTION_LIMITS.tags &&
      types <= EMPTY_COLLECTION_LIMITS.entityTypes &&
      templates === 0 &&
      notifiers === 0
    );
  }

  /**
   * Reads the whole backup once without writing anything: every table's rows must be JSON
   * objects with the ids they need, and every file an attachment names must be in the zip.
   */
  async validate(source: BackupSource): Promise<void> {
    for (const table of BACKUP_TABLES) {
      let index = 0;
      for await (const row of source.rows(table)) {
        const fields = row as unknown as Record<string, unknown>;
        const ids = ROW_KEYS[table] ?? ['id'];
        for (const id of ids) {
          if (typeof fields[id] !== 'string' || fields[id] === '') {
            throw new BackupFormatError(`${table} row ${index + 1} has no ${id}`);
          }
        }
        if (table === 'attachments') {
          const file = fields.file;
          if (file !== null && file !== undefined) {
            if (typeof file !== 'string' || !BACKUP_FILE_NAME.test(file)) {
              throw new BackupFormatError(`attachments row ${index + 1} has an invalid file name`);
            }
            (await source.openFile(file)).destroy();
          }
        }
        index += 1;
      }
    }
  }

  /**
   * Restores `source` into `groupId`. `report` is called outside the unit of work (it must be
   * seen while it runs); `finish` runs inside it, last, so the job's completion commits with the
   * rows. Data errors (a reference to a missing row, a bad value) become `BackupFormatError`.
   */
  async restore(
    groupId: string,
    source: BackupSource,
    report: ProgressReport,
    finish: () => Promise<void>,
  ): Promise<void> {
    const keys = await this.storeFiles(groupId, source, report);
    const idKey = `${randomUUID()}:`;
    let previous: string[] = [];
    try {
      await this.exports.transaction(async () => {
        if (!(await this.isEmpty(groupId))) throw new CollectionNotEmptyError();
        previous = await this.storedFiles.keysOfGroup(groupId);
        await this.entities.deleteAllOfGroup(groupId);
        await this.tags.deleteAllOfGroup(groupId);
        await this.entityTypes.deleteAllOfGroup(groupId);
        await this.insertRows(groupId, idKey, source, keys, report);
        await finish();
      });
    } catch (error) {
      const failure = asRestoreFailure(error);
      // Files stay for a retry (which stores the same keys); a restore that can never succeed
      // releases them.
      if (failure instanceof BackupFormatError || error instanceof CollectionNotEmptyError) {
        await this.storedFiles.releaseUnused(keys.values());
      }
      throw failure;
    }
    await this.storedFiles.releaseUnused(previous);
  }

  /** Stores each distinct file once; returns the storage key of each file name. */
  private async storeFiles(
    groupId: string,
    source: BackupSource,
    report: ProgressReport,
  ): Promise<Map<string, string>> {
    const keys = new Map<string, string>();
    const expected = Math.max(source.manifest.counts.files, 1);
    try {
      for await (const row of source.rows('attachments')) {
        const file = row.file;
        if (file === null || file === undefined || keys.has(file)) continue;
        if (!BACKUP_FILE_NAME.test(file)) {
          throw new BackupFormatError(`invalid attachment file name ${file}`);
        }
        const key = await this.storeFile(groupId, () => source.openFile(file), row.mime_type);
        keys.set(file, key);
        await report(Math.min(FILES_SHARE, Math.floor((keys.size * FILES_SHARE) / expected)));
      }
    } catch (error) {
      if (error instanceof BackupFormatError) await this.storedFiles.releaseUnused(keys.values());
      throw error;
    }
    return keys;
  }

  /**
   * Stores a restored file in the group as an upload of the same bytes would be, and returns its
   * key. `open` is called twice: once to hash the bytes (the key is derived from them), once to
   * store them unless the group has that file already.
   */
  private async storeFile(
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

  private async insertRows(
    groupId: string,
    idKey: string,
    source: BackupSource,
    keys: Map<string, string>,
    report: ProgressReport,
  ): Promise<void> {
    const keyOf = (file: string): string => {
      const key = keys.get(file);
      if (!key) throw new BackupFormatError(`the zip has no file ${file}`);
      return key;
    };
    const steps: [BackupTable, (rows: never[]) => Promise<void>][] = [
      [
        'entity_templates',
        (rows: BackupRows['entity_templates'][]) =>
          this.tables.restoreTemplates(groupId, idKey, rows),
      ],
      [
        'template_fields',
        (rows: BackupRows['template_fields'][]) =>
          this.tables.restoreTemplateFields(groupId, idKey, rows),
      ],
      [
        'entity_types',
        (rows: BackupRows['entity_types'][]) =>
          this.tables.restoreEntityTypes(groupId, idKey, rows),
      ],
      ['tags', (rows: BackupRows['tags'][]) => this.tables.restoreTags(groupId, idKey, rows)],
      ['tags', (rows: BackupRows['tags'][]) => this.tables.restoreTagParents(groupId, idKey, rows)],
      [
        'entities',
        (rows: BackupRows['entities'][]) =>
          this.tables.restoreEntities(groupId, idKey, rows.map(withReadAssetId)),
      ],
      [
        'entities',
        (rows: BackupRows['entities'][]) => this.tables.restoreEntityParents(groupId, idKey, rows),
      ],
      [
        'entity_templates',
        (rows: BackupRows['entity_templates'][]) =>
          this.tables.restoreTemplateLocations(groupId, idKey, rows),
      ],
      [
        'entity_fields',
        (rows: BackupRows['entity_fields'][]) =>
          this.tables.restoreEntityFields(groupId, idKey, rows),
      ],
      [
        'entity_tags',
        (rows: BackupRows['entity_tags'][]) => this.tables.restoreEntityTags(groupId, idKey, rows),
      ],
      [
        'maintenance_entries',
        (rows: BackupRows['maintenance_entries'][]) =>
          this.tables.restoreMaintenanceEntries(groupId, idKey, rows),
      ],
      [
        'entity_stock',
        (rows: BackupRows['entity_stock'][]) =>
          this.tables.restoreEntityStock(groupId, idKey, rows),
      ],
      [
        'checkouts',
        async (rows: BackupRows['checkouts'][]) => {
          // The users a backup names are accounts of the instance that wrote it: each is kept
          // only when a member of this group; a member who is not is named as the borrower.
          const memberIds = await this.groups.memberIdsOf(groupId);
          await this.tables.restoreCheckouts(groupId, idKey, rows, memberIds);
        },
      ],
      [
        'attachments',
        (rows: BackupRows['attachments'][]) =>
          this.tables.restoreAttachments(groupId, idKey, rows, keyOf),
      ],
      [
        'attachments',
        (rows: BackupRows['attachments'][]) =>
          this.tables.restoreAttachmentThumbnails(groupId, idKey, rows),
      ],
    ];
    for (const [index, [table, insert]] of steps.entries()) {
      let batch: never[] = [];
      for await (const row of source.rows(table)) {
        batch.push(row as never);
        if (batch.length >= BACKUP_PAGE_SIZE) {
          await insert(batch);
          batch = [];
        }
      }
      if (batch.length > 0) await insert(batch);
      await this.exports.outside(() =>
        report(FILES_SHARE + Math.floor(((index + 1) * (99 - FILES_SHARE)) / steps.length)),
      );
    }
  }
}

/** A data error of PostgreSQL as a `BackupFormatError` naming it; any other error as it is. */
function asRestoreFailure(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !DATA_ERROR.test(code)) return error;
  const detail = (error as { detail?: string }).detail;
  return new BackupFormatError(
    `the backup's rows cannot be restored: ${(error as Error).message}${detail ? ` (${detail})` : ''}`,
  );
}

/**
 * The row with its asset id read as a client's would be (plain digits, `123-4567`, a number;
 * empty for none) and written as the decimal text the restore inserts; a `BackupFormatError`
 * when it is not an asset id or is larger than the largest.
 */
function withReadAssetId(row: BackupRows['entities']): BackupRows['entities'] {
  const reading = readAssetId(row.asset_id);
  if (reading.problem !== undefined) {
    throw new BackupFormatError(`entity ${row.id} has an asset_id that ${reading.problem}`);
  }
  return { ...row, asset_id: String(reading.value) };
}
