import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { preparedQuery } from '../database/prepared-query.js';
import type { EntityChildSummaryDto, EntitySummaryDto } from './dto/entity-summary.dto.js';
import type { EntityFilter } from './entity-filter.js';
import { toEntityViews, type EntityViewRow } from './entity.mapper.js';
import { CHILD_SUMMARY, DETAIL, VIEW_JOINS, ancestorsOf } from './entity-view.sql.js';

/** The child summaries of the entities `$2` of group `$1`, with all their ancestors. */
const CHILD_SUMMARIES = `WITH RECURSIVE seed AS (
    SELECT e.id, e.parent_id, ordinality AS position
    FROM unnest($2::uuid[]) WITH ORDINALITY AS given(id, ordinality)
    JOIN entities e ON e.id = given.id AND e.group_id = $1
  ),
  ${ancestorsOf('seed', '$1')}
  SELECT seed.position, e.id, e.parent_id, t.is_location, ${CHILD_SUMMARY} AS view
  FROM (SELECT DISTINCT id FROM chain) shown
  JOIN entities e ON e.id = shown.id ${VIEW_JOINS}
  LEFT JOIN seed ON seed.id = e.id
  ORDER BY seed.position`;

/**
 * The summary of entity `$2` of group `$1`: its view with the detail, its ancestors and its
 * child locations (by name).
 */
const SUMMARY = `WITH RECURSIVE seed AS (
    SELECT e.id, e.parent_id, 1::bigint AS position FROM entities e WHERE e.id = $2 AND e.group_id = $1
  ),
  ${ancestorsOf('seed', '$1')},
  shown AS (
    SELECT DISTINCT id, NULL::int AS child FROM chain
    UNION ALL
    SELECT c.id, row_number() OVER (ORDER BY c.name, c.id)::int FROM entities c
    JOIN entity_types ct ON ct.id = c.entity_type_id
    WHERE c.group_id = $1 AND c.parent_id = $2 AND ct.is_location
  )
  SELECT seed.position, shown.child, e.id, e.parent_id, t.is_location,
         ${CHILD_SUMMARY} AS view,
         CASE WHEN seed.position IS NOT NULL THEN ${DETAIL} END AS detail
  FROM shown JOIN entities e ON e.id = shown.id ${VIEW_JOINS}
  LEFT JOIN seed ON seed.id = e.id
  ORDER BY seed.position, shown.child`;

/** A page of a filtered list: the total before paging and the views of the page's entities. */
export interface EntityViewPage {
  total: number;
  items: EntityChildSummaryDto[];
}

/**
 * Builds the views of entities (spec §2.1) in one SQL statement however many are shown: the
 * entities, all their ancestors, types, tags, photos and item counts come back together, shaped
 * by PostgreSQL (entity-view.sql.ts). The group is part of every statement. The statements of
 * fixed text are prepared; a list's depends on its filter, so PostgreSQL plans it each time.
 */
@Injectable()
export class EntityViewsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Child summaries of the given entities of the group, in the order given (unknown ids dropped). */
  async childSummaries(groupId: string, ids: string[]): Promise<EntityChildSummaryDto[]> {
    if (ids.length === 0) return [];
    const rows = await preparedQuery<EntityViewRow>(this.dataSource, CHILD_SUMMARIES, [
      groupId,
      ids,
    ]);
    return toEntityViews(rows).shown;
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
    const paging = limit === undefined ? '' : `LIMIT ${limit} OFFSET ${offset}`;
    // One row even for an empty page, so the total always comes back.
    const rows = await this.dataSource.query<(EntityViewRow & { total: number })[]>(
      `WITH RECURSIVE seed AS (
         SELECT id, parent_id, row_number() OVER () AS position FROM (
           SELECT e.id, e.parent_id FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
           WHERE ${filter.where} ORDER BY ${order} ${paging}
         ) page
       ),
       ${ancestorsOf('seed', '$1')},
       shown AS (
         SELECT seed.position, e.id, e.parent_id, t.is_location, ${CHILD_SUMMARY} AS view
         FROM (SELECT DISTINCT id FROM chain) ids
         JOIN entities e ON e.id = ids.id ${VIEW_JOINS}
         LEFT JOIN seed ON seed.id = e.id
       )
       SELECT counted.total, shown.*
       FROM (SELECT count(*)::int AS total FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
             WHERE ${filter.where}) counted
       LEFT JOIN shown ON true
       ORDER BY shown.position`,
      filter.params,
    );
    const total = rows[0]?.total ?? 0;
    return { total, items: toEntityViews(rows.filter((row) => row.id !== null)).shown };
  }

  /** The summary view of one entity of the group, or 404. */
  async summary(groupId: string, id: string): Promise<EntitySummaryDto> {
    const rows = await preparedQuery<EntityViewRow>(this.dataSource, SUMMARY, [groupId, id]);
    const views = toEntityViews(rows);
    const summary = views.summaries[0];
    if (!summary) throw new NotFoundException(`entity ${id} not found`);
    return summary;
  }
}
