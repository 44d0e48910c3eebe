import { Injectable } from '@nestjs/common';
import { Database } from '../../../platform/database/database.js';
import type { EntityFilter } from './entity-filter.js';
import type { EntityViewRow } from './entity.mapper.js';
import { CHILD_SUMMARIES, SUMMARY, pageOfViews } from './entity-view.sql.js';

/** The view rows of entities (summaries, pages, children) that EntityViewsService maps. */
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
}
