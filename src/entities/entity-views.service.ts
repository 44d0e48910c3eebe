import { Injectable, NotFoundException } from '@nestjs/common';
import type { EntityChildSummaryDto, EntitySummaryDto } from './dto/entity-summary.dto.js';
import type { EntityFilter } from './entity-filter.js';
import { toEntityViews } from './entity.mapper.js';
import { EntityRepository } from './entity.repository.js';

/** A page of a filtered list: the total before paging and the views of the page's entities. */
export interface EntityViewPage {
  total: number;
  items: EntityChildSummaryDto[];
}

/**
 * Builds the views of entities (spec §2.1) from one SQL statement however many are shown: the
 * entities, all their ancestors, types, tags, photos and item counts come back together, shaped
 * by PostgreSQL (entity-view.sql.ts). The group is part of every statement. The statements of
 * fixed text are prepared; a list's depends on its filter, so PostgreSQL plans it each time.
 */
@Injectable()
export class EntityViewsService {
  constructor(private readonly entities: EntityRepository) {}

  /** Child summaries of the given entities of the group, in the order given (unknown ids dropped). */
  async childSummaries(groupId: string, ids: string[]): Promise<EntityChildSummaryDto[]> {
    if (ids.length === 0) return [];
    return toEntityViews(await this.entities.childSummaryRows(groupId, ids)).shown;
  }

  /**
   * One page of the group's entities that pass `filter` (entity-filter.ts, over
   * `entities e JOIN entity_types t`), in `order`; `limit` undefined means all of them.
   */
  async page(
    filter: EntityFilter,
    order: string,
    limit: number | undefined,
    offset: number,
  ): Promise<EntityViewPage> {
    const rows = await this.entities.pageRows(filter, order, limit ?? null, offset);
    const total = rows[0]?.total ?? 0;
    return { total, items: toEntityViews(rows.filter((row) => row.id !== null)).shown };
  }

  /** The summary view of one entity of the group, or 404. */
  async summary(groupId: string, id: string): Promise<EntitySummaryDto> {
    const views = toEntityViews(await this.entities.summaryRows(groupId, id));
    const summary = views.summaries[0];
    if (!summary) throw new NotFoundException(`entity ${id} not found`);
    return summary;
  }
}
