import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import {
  COPY_STOCK,
  CLAIM_ALERTS,
  DELETE_STOCK,
  EXPIRING,
  EXPIRING_COUNT,
  EXPIRING_PAGE,
  FIND_STOCK,
  INSERT_ADJUSTMENT,
  LOW_STOCK,
  LOW_STOCK_COUNT,
  LOW_STOCK_PAGE,
  MARK_EXPIRY_ANNOUNCED,
  RECONCILE_LOW,
  STOCKED_COUNT,
  STOCKED_PAGE,
  UNANNOUNCED_EXPIRING,
  UPSERT_STOCK,
} from './entity-stock.sql.js';

/** An entity's stock settings as stored. */
export interface StockValues {
  minQuantity: number | null;
  reorderQuantity: number | null;
  expiresOn: string | null;
  notes: string;
}

/** Where a listed entity is: its ancestors from the top down. */
export interface LocationStep {
  id: string;
  name: string;
}

/** What both listings read of an entity. */
export interface ListedEntityRow {
  id: string;
  name: string;
  /** bigint as text. */
  assetId: string;
  quantity: number;
  location: LocationStep[];
  /** The location's names joined by ` / `. */
  path: string;
}

export interface LowStockRow extends ListedEntityRow {
  minQuantity: number;
  reorderQuantity: number | null;
}

export interface ExpiringRow extends ListedEntityRow {
  expiresOn: string;
  daysLeft: number;
}

export interface StockedRow extends ListedEntityRow {
  minQuantity: number | null;
  reorderQuantity: number | null;
  expiresOn: string | null;
  low: boolean;
}

/** Some rows of a listing, and how many there are in all. */
export interface RowPage<T> {
  total: number;
  rows: T[];
}

/** A stock adjustment as stored. */
export interface AdjustmentRow {
  id: string;
  entityId: string;
  quantityBefore: number;
  quantityAfter: number;
  reason: string;
  createdAt: Date;
}

/** An expiry a daily reminder may announce. */
export interface UnannouncedExpiry {
  groupId: string;
  id: string;
  name: string;
  expiresOn: string;
}

/** A claimed low-stock alert, with its entity as it is now and its group's name. */
export interface ClaimedAlert {
  groupId: string;
  groupName: string;
  id: string;
  name: string;
  quantity: number;
  minQuantity: number | null;
  reorderQuantity: number | null;
}

/** The only code that reads or writes `entity_stock`, `stock_alerts` and `stock_adjustments`. */
@Injectable()
export class EntityStockRepository {
  constructor(private readonly db: Database) {}

  async find(entityId: string, groupId: string): Promise<StockValues | undefined> {
    const [row] = await this.db.query<StockValues>(FIND_STOCK, [entityId, groupId]);
    return row;
  }

  /** Stores the settings (a full replacement); undefined when the entity is not the group's. */
  async upsert(
    entityId: string,
    groupId: string,
    values: StockValues,
  ): Promise<StockValues | undefined> {
    const [row] = await this.db.query<StockValues>(UPSERT_STOCK, [
      entityId,
      groupId,
      values.minQuantity,
      values.reorderQuantity,
      values.expiresOn,
      values.notes,
    ]);
    return row;
  }

  /** Gives entity `toEntityId` the settings of `fromEntityId`, both of the group (if it has any). */
  async copy(fromEntityId: string, toEntityId: string, groupId: string): Promise<void> {
    await this.db.query(COPY_STOCK, [fromEntityId, toEntityId, groupId]);
  }

  async delete(entityId: string, groupId: string): Promise<void> {
    await this.db.query(DELETE_STOCK, [entityId, groupId]);
  }

  findLow(groupId: string): Promise<LowStockRow[]> {
    return this.db.query<LowStockRow>(LOW_STOCK, [groupId]);
  }

  /** Expiring on or before `until`, with days left counted from `today` (`YYYY-MM-DD`). */
  findExpiring(groupId: string, until: string, today: string): Promise<ExpiringRow[]> {
    return this.db.query<ExpiringRow>(EXPIRING, [groupId, until, today]);
  }

  /** Entities of the group with stock settings, by name: `limit` after the first `offset`. */
  findStockedPage(groupId: string, limit: number, offset: number): Promise<RowPage<StockedRow>> {
    return this.page<StockedRow>(STOCKED_COUNT, [groupId], STOCKED_PAGE, [limit, offset]);
  }

  /** A page of `findLow`. */
  findLowPage(groupId: string, limit: number, offset: number): Promise<RowPage<LowStockRow>> {
    return this.page<LowStockRow>(LOW_STOCK_COUNT, [groupId], LOW_STOCK_PAGE, [limit, offset]);
  }

  /** A page of `findExpiring`. */
  findExpiringPage(
    groupId: string,
    until: string,
    today: string,
    limit: number,
    offset: number,
  ): Promise<RowPage<ExpiringRow>> {
    return this.page<ExpiringRow>(EXPIRING_COUNT, [groupId, until], EXPIRING_PAGE, [
      today,
      limit,
      offset,
    ]);
  }

  /**
   * Counts with `count` and `values`, then reads the page with `page` and `values` followed by
   * `more` (whose last is the offset), unless it starts past the end.
   */
  private async page<T>(
    count: string,
    values: unknown[],
    page: string,
    more: unknown[],
  ): Promise<RowPage<T>> {
    const [{ total }] = await this.db.query<{ total: number }>(count, values);
    const offset = more.at(-1) as number;
    const rows = total > offset ? await this.db.query<T>(page, [...values, ...more]) : [];
    return { total, rows };
  }

  /** Records an adjustment of an entity of the group, in the caller's unit of work. */
  async insertAdjustment(
    groupId: string,
    entityId: string,
    quantityBefore: number,
    quantityAfter: number,
    reason: string,
  ): Promise<AdjustmentRow> {
    const [row] = await this.db.query<AdjustmentRow>(INSERT_ADJUSTMENT, [
      groupId,
      entityId,
      quantityBefore,
      quantityAfter,
      reason,
    ]);
    return row;
  }

  findUnannouncedExpiring(until: string): Promise<UnannouncedExpiry[]> {
    return this.db.query<UnannouncedExpiry>(UNANNOUNCED_EXPIRING, [until]);
  }

  async markExpiryAnnounced(items: { id: string; expiresOn: string }[]): Promise<void> {
    if (items.length === 0) return;
    await this.db.query(MARK_EXPIRY_ANNOUNCED, [
      items.map((item) => item.id),
      items.map((item) => item.expiresOn),
    ]);
  }

  /** Claims and deletes up to `limit` alerts, in the open unit of work. */
  claimAlerts(limit: number): Promise<ClaimedAlert[]> {
    return this.db.query<ClaimedAlert>(CLAIM_ALERTS, [limit]);
  }

  async reconcileLow(): Promise<void> {
    await this.db.query(RECONCILE_LOW);
  }
}
