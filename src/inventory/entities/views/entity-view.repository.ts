import { Injectable } from '@nestjs/common';
import { Database } from '../../../platform/database/database.js';
import type { EntityFilter } from './entity-filter.js';
import type { EntityViewRow } from './entity.mapper.js';
import {
  CHILD_SUMMARIES,
  FIELD_NAMES,
  FIELD_VALUES,
  IDS_BY_ASSET_ID,
  LOCATION_TREE_ROWS,
  LOCATION_TREE_VERSION,
  PATH,
  SUMMARY,
  TREE_ROWS,
  matchingIdsOf,
  pageOfViews,
} from './entity-view.sql.js';

export interface EntityPathRow {
  id: string;
  name: string;
  is_location: boolean;
}

export interface EntityTreeRow {
  id: string;
  name: string;
  parent_id: string | null;
  is_location: boolean;
}

/**
 * The reads of entities: the view rows (summaries, pages, children) that EntityViewsService maps,
 * the path and tree rows, and the names and values of custom fields.
 */
@Injectable()
export class EntityViewRepository {
  constructor(private readonly db: Database) {}

  /** The view rows of the given entities of the group, in the order given, with their ancestors. */
  childSummaryRows(groupId: string, ids: string[]): Promise<EntityViewRow[]> {
    return this.db.prepared<EntityViewRow>(CHILD_SUMMARIES, [groupId, ids]);
  }

  /** The view rows of the summary of one entity of the group; none when it is not one. */
  summaryRows(groupId: string, id: string): Promise<EntityViewRow[]> {
    return this.db.prepared<EntityViewRow>(SUMMARY, [groupId, id]);
  }

  /**
   * The view rows of one page of the group's entities that pass `filter`, in `order`; `limit`
   * null means all of them. One row even for an empty page, so the total always comes back.
   */
  pageRows(
    filter: EntityFilter,
    order: string,
    limit: number | null,
    offset: number,
  ): Promise<(EntityViewRow & { total: number })[]> {
    const params = [...filter.params, limit, offset];
    const sql = pageOfViews(filter, order, `$${params.length - 1}`, `$${params.length}`);
    // Prepared: its text depends on which filters are given, not on their values, and its plan
    // neither (each filter's matches are found by index first).
    return this.db.prepared<EntityViewRow & { total: number }>(sql, params);
  }

  /** The ids of the group's entities that pass `filter`, in `order`, at most `limit`. */
  async matchingIds(filter: EntityFilter, order: string, limit: number): Promise<string[]> {
    const params = [...filter.params, limit];
    const rows = await this.db.prepared<{ id: string }>(
      matchingIdsOf(filter, order, `$${params.length}`),
      params,
    );
    return rows.map((row) => row.id);
  }

  /** The ids of the group's entities with this asset id, by name. */
  async idsByAssetId(groupId: string, assetId: bigint): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(IDS_BY_ASSET_ID, [groupId, String(assetId)]);
    return rows.map((row) => row.id);
  }

  /** An entity of the group and its ancestors, from the top down; empty when it is not one. */
  path(groupId: string, id: string): Promise<EntityPathRow[]> {
    return this.db.query<EntityPathRow>(PATH, [id, groupId]);
  }

  /** The version of the group's tree of locations: the same for as long as the tree is. */
  async locationTreeVersion(groupId: string): Promise<string> {
    const [row] = await this.db.prepared<{ version: string }>(LOCATION_TREE_VERSION, [groupId]);
    return row.version;
  }

  /** The group's locations, and with `withItems` its items too. */
  treeRows(groupId: string, withItems: boolean): Promise<EntityTreeRow[]> {
    return this.db.query<EntityTreeRow>(withItems ? TREE_ROWS : LOCATION_TREE_ROWS, [groupId]);
  }

  async fieldNames(groupId: string): Promise<string[]> {
    const rows = await this.db.query<{ name: string }>(FIELD_NAMES, [groupId]);
    return rows.map((row) => row.name);
  }

  async fieldValues(groupId: string, field: string): Promise<string[]> {
    const rows = await this.db.query<{ value: string }>(FIELD_VALUES, [groupId, field]);
    return rows.map((row) => row.value);
  }
}
