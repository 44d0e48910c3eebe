import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import type { HistoryAction, StoredActor } from './entity-history.record.js';
import {
  AUDIT_BATCH,
  AUDIT_COUNT,
  AUDIT_PAGE,
  ENTITY_HISTORY_COUNT,
  ENTITY_HISTORY_PAGE,
  PURGE_BATCH,
} from './entity-history.sql.js';

/** A history row as the page statements return it. */
export interface HistoryRow {
  id: string;
  entity_id: string;
  entity_name: string;
  action: HistoryAction;
  operation: string;
  changed_at: Date;
  actor: StoredActor;
  changes: Record<string, { before: unknown; after: unknown }>;
  /** The asset id before and after the change, as decimal text, when it changed. */
  asset_id_before: string | null;
  asset_id_after: string | null;
}

/** A page of rows and how many there are in all. */
export interface HistoryPage {
  total: number;
  rows: HistoryRow[];
}

export interface AuditFilter {
  since: Date | null;
  until: Date | null;
  actorId: string | null;
  entityId: string | null;
  action: HistoryAction | null;
}

/** A history row of a download batch, with its place in the order to continue from. */
export interface HistoryBatchRow extends HistoryRow {
  seq: string;
}

/** The only code that reads or deletes `entity_history` rows (the triggers write them). */
@Injectable()
export class EntityHistoryRepository {
  constructor(private readonly db: Database) {}

  /** The entity's changes, newest first. */
  pageOfEntity(
    groupId: string,
    entityId: string,
    limit: number,
    offset: number,
  ): Promise<HistoryPage> {
    return this.page(ENTITY_HISTORY_COUNT, ENTITY_HISTORY_PAGE, [groupId, entityId], limit, offset);
  }

  /** The group's changes that pass the filter, newest first. */
  pageOfGroup(
    groupId: string,
    filter: AuditFilter,
    limit: number,
    offset: number,
  ): Promise<HistoryPage> {
    return this.page(AUDIT_COUNT, AUDIT_PAGE, auditValues(groupId, filter), limit, offset);
  }

  /**
   * Up to `limit` of the group's changes that pass the filter, newest first, starting below
   * `beforeSeq` (the last row's `seq` of the batch before; null for the first batch).
   */
  batchOfGroup(
    groupId: string,
    filter: AuditFilter,
    beforeSeq: string | null,
    limit: number,
  ): Promise<HistoryBatchRow[]> {
    return this.db.query<HistoryBatchRow>(AUDIT_BATCH, [
      ...auditValues(groupId, filter),
      beforeSeq,
      limit,
    ]);
  }

  /** How many rows match, and the page of them (none past the end). */
  private async page(
    count: string,
    page: string,
    values: unknown[],
    limit: number,
    offset: number,
  ): Promise<HistoryPage> {
    const [{ total }] = await this.db.query<{ total: number }>(count, values);
    const rows =
      total > offset ? await this.db.query<HistoryRow>(page, [...values, limit, offset]) : [];
    return { total, rows };
  }

  /** Deletes up to `batch` changes made before `cutOff`; how many went. */
  async purgeBatch(cutOff: Date, batch: number): Promise<number> {
    const [row] = await this.db.query<{ purged: number }>(PURGE_BATCH, [cutOff, batch]);
    return row?.purged ?? 0;
  }
}

/** The audit statements' first parameters ($1–$6). */
function auditValues(groupId: string, filter: AuditFilter): unknown[] {
  const { since, until, actorId, entityId, action } = filter;
  return [groupId, since, until, actorId, entityId, action];
}
