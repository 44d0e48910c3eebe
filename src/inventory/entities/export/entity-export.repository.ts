import { Injectable } from '@nestjs/common';
import { Database } from '../../../platform/database/database.js';
import type { BillOfMaterialsRow, EntityExportRow } from './entity-export.js';
import { BILL_OF_MATERIALS_BATCH, EXPORT_BATCH, EXPORT_FIELD_NAMES } from './entity-export.sql.js';

/** The reads of an export of the group's entities (EntityExportsService). */
@Injectable()
export class EntityExportRepository {
  constructor(private readonly db: Database) {}

  /** The custom-field names of the group's entities, in code point order: the export's columns. */
  async exportFieldNames(groupId: string): Promise<string[]> {
    const rows = await this.db.query<{ name: string }>(EXPORT_FIELD_NAMES, [groupId]);
    return rows.map((row) => row.name);
  }

  /**
   * Up to `limit` entities of the group, by id after `after` (null: from the first), for the
   * export. PostgreSQL cannot estimate how far the walk up the tree goes and guesses high, so
   * it would compile the statement (JIT), which costs more than running it: not for this one.
   */
  exportBatch(groupId: string, after: string | null, limit: number): Promise<EntityExportRow[]> {
    return this.db.transaction(async () => {
      await this.db.query('SET LOCAL jit = off');
      return this.db.query<EntityExportRow>(EXPORT_BATCH, [groupId, after, limit]);
    });
  }

  /** Up to `limit` entities of the group, by id after `after`, for the bill of materials. */
  billOfMaterialsBatch(
    groupId: string,
    after: string | null,
    limit: number,
  ): Promise<BillOfMaterialsRow[]> {
    return this.db.query<BillOfMaterialsRow>(BILL_OF_MATERIALS_BATCH, [groupId, after, limit]);
  }
}
