import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import {
  GROUP_TOTALS,
  LOCATION_TOTALS,
  LOCATION_TOTALS_VERSION,
  PURCHASE_PRICE,
  TAG_TOTALS,
} from './statistics.sql.js';

export interface GroupTotals {
  totalUsers: number;
  totalItems: number;
  totalLocations: number;
  totalTags: number;
  totalItemPrice: number;
  totalWithWarranty: number;
}

export interface PurchasePriceRow {
  valueAtStart: number;
  valueAtEnd: number;
  entries: { date: string; value: number; name: string }[];
}

export interface OrganizerTotal {
  id: string;
  name: string;
  total: number;
}

/**
 * The read-only statistics of a group. Each reads several modules' tables in one statement
 * (see statistics.sql.ts); this module owns no table. They run unprepared: their plans depend on
 * the size of the group (the lookup of a version by key excepted).
 */
@Injectable()
export class StatisticsRepository {
  constructor(private readonly db: Database) {}

  async groupTotals(groupId: string): Promise<GroupTotals> {
    const [row] = await this.db.query<GroupTotals>(GROUP_TOTALS, [groupId]);
    return row;
  }

  async purchasePrice(groupId: string, start: Date, end: Date): Promise<PurchasePriceRow> {
    const [row] = await this.db.query<PurchasePriceRow>(PURCHASE_PRICE, [groupId, start, end]);
    return row;
  }

  /** The version of the group's location totals: the same for as long as they are. */
  async locationTotalsVersion(groupId: string): Promise<string> {
    const [row] = await this.db.prepared<{ version: string }>(LOCATION_TOTALS_VERSION, [groupId]);
    return row.version;
  }

  locationTotals(groupId: string): Promise<OrganizerTotal[]> {
    return this.db.query<OrganizerTotal>(LOCATION_TOTALS, [groupId]);
  }

  tagTotals(groupId: string): Promise<OrganizerTotal[]> {
    return this.db.query<OrganizerTotal>(TAG_TOTALS, [groupId]);
  }
}
