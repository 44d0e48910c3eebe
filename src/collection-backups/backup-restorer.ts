import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AttachmentBackupsService } from '../attachments/attachment-backups.service.js';
import { CheckoutsService } from '../checkouts/checkouts.service.js';
import { readAssetId } from '../common/asset-id.js';
import { EntitiesService } from '../entities/entities.service.js';
import { EntityTypesService } from '../entity-types/entity-types.service.js';
import { MaintenanceService } from '../maintenance/maintenance.service.js';
import { NotifiersService } from '../notifiers/notifiers.service.js';
import { StockService } from '../stock/stock.service.js';
import { TagsService } from '../tags/tags.service.js';
import { TemplatesService } from '../templates/templates.service.js';
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
 * restore is all or nothing. Every id is new (see src/database/backup.sql.ts).
 */
@Injectable()
export class BackupRestorer {
  constructor(
    private readonly entityTypes: EntityTypesService,
    private readonly templates: TemplatesService,
    private readonly tags: TagsService,
    private readonly entities: EntitiesService,
    private readonly maintenance: MaintenanceService,
    private readonly stock: StockService,
    private readonly checkouts: CheckoutsService,
    private readonly attachments: AttachmentBackupsService,
    private readonly notifiers: NotifiersService,
    private readonly exports: GroupExportRepository,
  ) {}

  /** Whether the group holds no more than its seed data. */
  async isEmpty(groupId: string): Promise<boolean> {
    // One after the other: in a unit of work they share one connection.
    const entities = await this.entities.countOfGroup(groupId);
    const tags = await this.tags.countOfGroup(groupId);
    const types = await this.entityTypes.countOfGroup(groupId);
    const templates = await this.templates.countOfGroup(groupId);
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
        previous = await this.attachments.keysOfGroup(groupId);
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
        await this.attachments.releaseUnused(keys.values());
      }
      throw failure;
    }
    await this.attachments.releaseUnused(previous);
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
        const key = await this.attachments.storeFile(
          groupId,
          () => source.openFile(file),
          row.mime_type,
        );
        keys.set(file, key);
        await report(Math.min(FILES_SHARE, Math.floor((keys.size * FILES_SHARE) / expected)));
      }
    } catch (error) {
      if (error instanceof BackupFormatError) await this.attachments.releaseUnused(keys.values());
      throw error;
    }
    return keys;
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
          this.templates.restoreBackup(groupId, idKey, rows),
      ],
      [
        'template_fields',
        (rows: BackupRows['template_fields'][]) =>
          this.templates.restoreBackupFields(groupId, idKey, rows),
      ],
      [
        'entity_types',
        (rows: BackupRows['entity_types'][]) =>
          this.entityTypes.restoreBackup(groupId, idKey, rows),
      ],
      ['tags', (rows: BackupRows['tags'][]) => this.tags.restoreBackup(groupId, idKey, rows)],
      [
        'tags',
        (rows: BackupRows['tags'][]) => this.tags.restoreBackupParents(groupId, idKey, rows),
      ],
      [
        'entities',
        (rows: BackupRows['entities'][]) =>
          this.entities.restoreBackup(groupId, idKey, rows.map(withReadAssetId)),
      ],
      [
        'entities',
        (rows: BackupRows['entities'][]) =>
          this.entities.restoreBackupParents(groupId, idKey, rows),
      ],
      [
        'entity_templates',
        (rows: BackupRows['entity_templates'][]) =>
          this.templates.restoreBackupLocations(groupId, idKey, rows),
      ],
      [
        'entity_fields',
        (rows: BackupRows['entity_fields'][]) =>
          this.entities.restoreBackupFields(groupId, idKey, rows),
      ],
      [
        'entity_tags',
        (rows: BackupRows['entity_tags'][]) =>
          this.entities.restoreBackupTags(groupId, idKey, rows),
      ],
      [
        'maintenance_entries',
        (rows: BackupRows['maintenance_entries'][]) =>
          this.maintenance.restoreBackup(groupId, idKey, rows),
      ],
      [
        'entity_stock',
        (rows: BackupRows['entity_stock'][]) => this.stock.restoreBackup(groupId, idKey, rows),
      ],
      [
        'checkouts',
        (rows: BackupRows['checkouts'][]) => this.checkouts.restoreBackup(groupId, idKey, rows),
      ],
      [
        'attachments',
        (rows: BackupRows['attachments'][]) =>
          this.attachments.restoreBackup(groupId, idKey, rows, keyOf),
      ],
      [
        'attachments',
        (rows: BackupRows['attachments'][]) =>
          this.attachments.restoreBackupThumbnails(groupId, idKey, rows),
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
