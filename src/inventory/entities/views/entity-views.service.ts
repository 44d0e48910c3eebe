import { Injectable } from '@nestjs/common';
import { JsonText } from '../../../platform/http/json-text.js';
import { notOwned } from '../../../platform/database/owned.js';
import type { EntitySummaryDto } from './dto/entity-summary.dto.js';
import type { EntityFilter } from './entity-filter.js';
import { linkEntityViews } from './entity.mapper.js';
import { EntityViewRepository } from './entity-view.repository.js';

/** A page of a filtered list: the total before paging and the views of the page's entities. */
export interface EntityViewPage {
  total: number;
  /** The child summaries of the page's entities, as JSON text, in order. */
  items: string[];
  /** Σ purchase price of the page's entities not sold, summed in page order. */
  totalPrice: number;
}

/**
 * Builds the views of entities (spec §2.1) from one SQL statement however many are shown: the
 * entities, all their ancestors, types, tags, photos and item counts come back together, written
 * as JSON by PostgreSQL (entity-view.sql.ts) and linked as text (`linkEntityViews`), so a view is
 * never parsed or serialised again on its way out. The group is part of every statement; every
 * statement is prepared (a list's text depends on its filter, not on the filter's values).
 */
@Injectable()
export class EntityViewsService {
  constructor(private readonly entities: EntityViewRepository) {}

  /**
   * Child summaries (JSON text) of the given entities of the group, in the order given (unknown
   * ids dropped).
   */
  async childSummaries(groupId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    return linkEntityViews(await this.entities.childSummaryRows(groupId, ids)).shown;
  }

  /**
   * One page of the group's entities that pass `filter` (entity-filter.ts, over its rows
   * joined to `entity_types t`), in `order`; `limit` undefined means all of them.
   */
  async page(
    filter: EntityFilter,
    order: string,
    limit: number | undefined,
    offset: number,
  ): Promise<EntityViewPage> {
    const rows = await this.entities.pageRows(filter, order, limit ?? null, offset);
    const total = rows[0]?.total ?? 0;
    const onPage = rows.filter((row) => row.id !== null);
    let totalPrice = 0;
    for (const row of onPage) if (row.position !== null) totalPrice += row.price ?? 0;
    return { total, items: linkEntityViews(onPage).shown, totalPrice };
  }

  /** The summary view of one entity of the group, or 404. */
  async summary(groupId: string, id: string): Promise<JsonText<EntitySummaryDto>> {
    const [summary] = linkEntityViews(await this.entities.summaryRows(groupId, id)).summaries;
    if (summary === undefined) throw notOwned('entity', id);
    return new JsonText(summary);
  }
}
