import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type yazl from 'yazl';
import { onFirstUse } from '../../platform/runtime/on-first-use.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { Storage, StoredFileNotFoundError } from '../../platform/storage/storage.js';
import {
  attachmentEntryName,
  BACKUP_TABLES,
  type BackupManifest,
  type BackupTable,
  MANIFEST_ENTRY,
  tableEntryName,
  TROVE_BACKUP_SCHEMA,
} from './backup-format.js';
import { GroupExportRepository } from './group-export.repository.js';
import { FIRST_UUID } from './tables/backup.sql.js';
import { BackupTablesRepository } from './tables/backup-tables.repository.js';

/** The zip writer, imported with the first backup written. */
const yazlModule = onFirstUse(async () => (await import('yazl')).default);

/** Rows read per query. */
export const BACKUP_PAGE_SIZE = 500;

/** Percent of the progress the tables take; the files take the rest. */
const TABLES_SHARE = 10;

/** Reports progress (0–99); throws to stop the export. */
export type ProgressReport = (percent: number) => Promise<void>;

/** The export of a file that disappeared from storage while the export ran. */
export class BackupFileMissingError extends Error {}

/**
 * Writes a group's `trove-1` backup zip (see backup-format.ts) into storage as a stream: rows are
 * read in keyset pages from one consistent snapshot of the database and written as they come,
 * stored files are copied from storage one after the other, and the zip flows into storage while
 * it is written. Memory holds a page of rows, a chunk of a file, and the names of the group's
 * distinct files.
 */
@Injectable()
export class BackupWriter {
  constructor(
    private readonly tables: BackupTablesRepository,
    private readonly exports: GroupExportRepository,
    private readonly storage: Storage,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /** Writes the backup of `groupId` under storage key `key`; returns its size in bytes. */
  async write(groupId: string, key: string, report: ProgressReport): Promise<number> {
    const { ZipFile } = await yazlModule();
    const zip = new ZipFile();
    const output = zip.outputStream as Readable;
    const stored = this.storage.put(key, output, 'application/zip');
    // Rejects (and stays rejected) as soon as storing fails, so that no step waits forever on a
    // zip nobody reads any more.
    const storeFailed = stored.then(
      () => new Promise<never>(() => undefined),
      (error: unknown) => Promise.reject(error as Error),
    );
    storeFailed.catch(() => undefined);
    try {
      const counts = Object.fromEntries(
        [...BACKUP_TABLES, 'files'].map((name) => [name, 0]),
      ) as BackupManifest['counts'];
      const files = new Map<string, string>();
      await this.exports.snapshot(async () => {
        for (const [index, table] of BACKUP_TABLES.entries()) {
          const rows = this.rowsOf(groupId, table, files);
          const body = Readable.from(jsonArray(rows, (n) => (counts[table] = n)));
          await addEntry(zip, tableEntryName(table), body, true, storeFailed);
          await report(Math.floor(((index + 1) * TABLES_SHARE) / BACKUP_TABLES.length));
        }
      });
      let copied = 0;
      for (const [file, fileKey] of files) {
        let body: Readable;
        try {
          body = (await this.storage.get(fileKey)).body;
        } catch (error) {
          if (error instanceof StoredFileNotFoundError) {
            throw new BackupFileMissingError(
              `stored file ${fileKey} disappeared during the export; export again`,
            );
          }
          throw error;
        }
        await addEntry(zip, attachmentEntryName(file), body, false, storeFailed);
        copied += 1;
        await report(TABLES_SHARE + Math.floor((copied * (99 - TABLES_SHARE)) / files.size));
      }
      counts.files = files.size;
      const manifest: BackupManifest = {
        schemaVersion: TROVE_BACKUP_SCHEMA,
        exportedAt: new Date().toISOString(),
        groupId,
        troveVersion: this.config.get('build', { infer: true }).version,
        counts,
      };
      zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_ENTRY);
      zip.end();
      await stored;
    } catch (error) {
      output.destroy(error as Error);
      await stored.catch(() => undefined);
      await this.storage.delete(key).catch(() => undefined);
      throw error;
    }
    const info = await this.storage.head(key);
    return info?.size ?? 0;
  }

  /** A table's rows, page after page; attachments also note their files in `files`. */
  private async *rowsOf(
    groupId: string,
    table: BackupTable,
    files: Map<string, string>,
  ): AsyncGenerator<object> {
    const limit = BACKUP_PAGE_SIZE;
    switch (table) {
      case 'entity_types':
        yield* byId((after) => this.tables.entityTypesPage(groupId, after, limit));
        return;
      case 'entity_templates':
        yield* byId((after) => this.tables.templatesPage(groupId, after, limit));
        return;
      case 'template_fields':
        yield* byId((after) => this.tables.templateFieldsPage(groupId, after, limit));
        return;
      case 'tags':
        yield* byId((after) => this.tables.tagsPage(groupId, after, limit));
        return;
      case 'entities':
        yield* byId((after) => this.tables.entitiesPage(groupId, after, limit));
        return;
      case 'entity_fields':
        yield* byId((after) => this.tables.entityFieldsPage(groupId, after, limit));
        return;
      case 'entity_tags':
        yield* paged(
          (after) => this.tables.entityTagsPage(groupId, after, limit),
          { entity_id: FIRST_UUID, tag_id: FIRST_UUID },
          (row) => row,
        );
        return;
      case 'maintenance_entries':
        yield* byId((after) => this.tables.maintenanceEntriesPage(groupId, after, limit));
        return;
      case 'entity_stock':
        // Keyed by its entity.
        yield* paged(
          (after) => this.tables.entityStockPage(groupId, after, limit),
          FIRST_UUID,
          (row) => row.entity_id,
        );
        return;
      case 'checkouts':
        yield* byId((after) => this.tables.checkoutsPage(groupId, after, limit));
        return;
      case 'attachments':
        for await (const { key, ...row } of byId((after) =>
          this.tables.attachmentsPage(groupId, after, limit),
        )) {
          if (key !== null && row.file !== null) files.set(row.file, key);
          yield row;
        }
        return;
    }
  }
}

/** A table's rows by keyset pages: each page starts after the key (`keyOf`) of the last row. */
async function* paged<T, K>(
  page: (after: K) => Promise<T[]>,
  first: K,
  keyOf: (row: T) => K,
): AsyncGenerator<T> {
  let after = first;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    if (rows.length < BACKUP_PAGE_SIZE) return;
    after = keyOf(rows[rows.length - 1]);
  }
}

/** `paged` for the tables keyed by `id`. */
const byId = <T extends { id: string }>(
  page: (afterId: string) => Promise<T[]>,
): AsyncGenerator<T> => paged(page, FIRST_UUID, (row) => row.id);

/** A JSON array of the rows, one per line; `counted` gets their number at the end. */
async function* jsonArray(
  rows: AsyncIterable<object>,
  counted: (count: number) => void,
): AsyncGenerator<Buffer> {
  yield Buffer.from('[');
  let count = 0;
  for await (const row of rows) {
    yield Buffer.from(`${count === 0 ? '\n' : ',\n'}${JSON.stringify(row)}`);
    count += 1;
  }
  yield Buffer.from('\n]\n');
  counted(count);
}

/** Adds a streamed entry and waits until the zip has taken all of it. */
function addEntry(
  zip: yazl.ZipFile,
  name: string,
  body: Readable,
  compress: boolean,
  storeFailed: Promise<never>,
): Promise<void> {
  const taken = new Promise<void>((resolve, reject) => {
    body.once('end', resolve);
    body.once('error', reject);
  });
  zip.addReadStream(body, name, { compress, mtime: new Date() });
  return Promise.race([taken, storeFailed]).catch((error: unknown) => {
    body.destroy();
    throw error;
  });
}
