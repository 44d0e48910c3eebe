import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import type { CsvDownload } from '../../../platform/http/csv-download.js';
import type { TroveConfig } from '../../../platform/config/configuration.js';
import { publicBaseUrl } from '../core/label-link.js';
import {
  BILL_OF_MATERIALS_COLUMNS,
  BILL_OF_MATERIALS_FILENAME,
  exportFilename,
  exportHeader,
  toBillOfMaterialsRecord,
  toExportRecord,
} from './entity-export.js';
import { EntityExportRepository } from './entity-export.repository.js';

/** Entities read per statement: what the export holds in memory at most (twice, with the next). */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * The CSV files of a group's entities, streamed: the entities are read in batches by id, each
 * batch one statement outside any transaction, and the next batch is read only as the client
 * takes the rows, so memory does not grow with the inventory and reading stops when the client
 * goes away.
 */
@Injectable()
export class EntityExportsService {
  constructor(
    private readonly entities: EntityExportRepository,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /**
   * The export of the caller's group (Homebox notes §17.1): every entity, locations and archived
   * ones included, with one `HB.field.<name>` column per custom-field name of the group. Links
   * point at the configured public hostname, else at `origin` (where the request came to).
   */
  async exportEntities(user: AuthUser, origin: string, at = new Date()): Promise<CsvDownload> {
    const fieldNames = await this.entities.exportFieldNames(user.groupId);
    const base = publicBaseUrl(this.config.get('options', { infer: true }).hostname, origin);
    const rows = await this.stream(
      (after) => this.entities.exportBatch(user.groupId, after, EXPORT_BATCH_SIZE),
      (row) => toExportRecord(row, fieldNames, base),
    );
    return {
      disposition: `attachment;filename=${exportFilename(at)}`,
      header: exportHeader(fieldNames),
      rows,
    };
  }

  /** The bill of materials of the caller's group (§17.3): one row per entity. */
  async billOfMaterials(user: AuthUser): Promise<CsvDownload> {
    const rows = await this.stream(
      (after) => this.entities.billOfMaterialsBatch(user.groupId, after, EXPORT_BATCH_SIZE),
      toBillOfMaterialsRecord,
    );
    return {
      disposition: `attachment; filename=${BILL_OF_MATERIALS_FILENAME}`,
      header: [...BILL_OF_MATERIALS_COLUMNS],
      rows,
    };
  }

  /**
   * The records of every batch `read` returns, as an object stream. The first batch is read
   * before this returns, so a failing database is an ordinary error response; after that each
   * batch is read while the previous one is being written.
   */
  private async stream<T extends { id: string }>(
    read: (after: string | null) => Promise<T[]>,
    toRecord: (row: T) => string[],
  ): Promise<Readable> {
    const first = await read(null);
    async function* records(): AsyncGenerator<string[]> {
      let batch = first;
      for (;;) {
        const last = batch.length === EXPORT_BATCH_SIZE ? batch[batch.length - 1] : undefined;
        const next = last ? read(last.id) : undefined;
        // Should the client leave while it is being read, its failure is nobody's concern.
        void next?.catch(() => undefined);
        for (const row of batch) yield toRecord(row);
        if (!next) return;
        batch = await next;
      }
    }
    return Readable.from(records());
  }
}
