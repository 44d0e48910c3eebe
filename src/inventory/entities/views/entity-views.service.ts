import { BadRequestException, Injectable } from '@nestjs/common';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { compareByName } from '../../../platform/database/name-order.js';
import { notOwned } from '../../../platform/database/owned.js';
import { JsonText } from '../../../platform/http/json-text.js';
import { ResponseCache } from '../../../platform/http/response-cache.js';
import { readAssetId } from '../core/asset-id.js';
import type {
  AssetPageDto,
  EntityPageDto,
  EntityPathDto,
  EntitySummaryDto,
  EntityTreeNodeDto,
} from './dto/entity-summary.dto.js';
import type { ListEntitiesQueryDto } from './dto/list-entities.query.dto.js';
import { buildEntityFilter, entityOrder, type EntityFilter } from './entity-filter.js';
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

  /** Trees of locations built lately, by group, with the version of the tree they show. */
  private readonly locationTrees = new ResponseCache();

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

  /** The summary view of one entity of the caller's group, or 404. */
  async get(user: AuthUser, id: string): Promise<JsonText<EntitySummaryDto>> {
    return this.summary(user.groupId, id);
  }

  async list(user: AuthUser, query: ListEntitiesQueryDto): Promise<JsonText<EntityPageDto>> {
    const filter = buildEntityFilter(user.groupId, query);
    const paged = query.page !== undefined || query.pageSize !== undefined;
    const pageSize = query.pageSize && query.pageSize > 0 ? query.pageSize : paged ? 10 : 0;
    const page = Math.max(query.page ?? 1, 1);
    const { total, items, totalPrice } = await this.page(
      filter,
      entityOrder(query.orderBy),
      paged ? pageSize : undefined,
      (page - 1) * pageSize,
    );
    // The page's views are JSON already: the envelope is written around them.
    return new JsonText(
      `{"page":${query.page ?? -1},"pageSize":${query.pageSize ?? -1},"total":${total},` +
        `"items":[${items.join(',')}],"totalPrice":${JSON.stringify(totalPrice)}}`,
    );
  }

  /**
   * The ids of the group's entities the list's filters match (`query` without its paging), in
   * its order, and with `among` only those of these ids: at most `limit` of them.
   */
  matchingIds(
    user: AuthUser,
    query: ListEntitiesQueryDto,
    limit: number,
    among?: string[],
  ): Promise<string[]> {
    const filter = buildEntityFilter(user.groupId, query);
    if (among !== undefined) {
      filter.params.push(among);
      filter.where += ` AND e.id = ANY($${filter.params.length}::uuid[])`;
    }
    return this.entities.matchingIds(filter, entityOrder(query.orderBy), limit);
  }

  /** Every entity of the group with this asset id (items, locations and archived), by name. */
  async findByAssetId(
    user: AuthUser,
    assetIdText: string,
    page: number | undefined,
    pageSize: number | undefined,
  ): Promise<JsonText<AssetPageDto>> {
    const assetId = readAssetId(assetIdText);
    if (assetId.problem !== undefined || assetId.value === 0n) {
      throw new BadRequestException(
        assetId.problem !== undefined && assetId.tooLarge
          ? `invalid asset id: ${assetId.problem}`
          : `invalid asset id: ${assetIdText}`,
      );
    }
    const ids = await this.entities.idsByAssetId(user.groupId, assetId.value);
    const items = await this.childSummaries(user.groupId, ids);
    return new JsonText(
      `{"page":${page ?? -1},"pageSize":${pageSize ?? -1},"total":${items.length},` +
        `"items":[${items.join(',')}]}`,
    );
  }

  /** From the top-level ancestor down to the entity itself. */
  async path(user: AuthUser, id: string): Promise<EntityPathDto[]> {
    const rows = await this.entities.path(user.groupId, id);
    if (rows.length === 0) throw notOwned('entity', id);
    return rows.map((row) => ({
      type: row.is_location ? 'location' : 'item',
      id: row.id,
      name: row.name,
    }));
  }

  /**
   * Top-level locations with the locations inside them, and with `withItems` the items inside
   * those (and items inside items), as JSON. The tree of locations alone is built once per
   * version of the group's tree of locations (`location_versions`) and carries that version as
   * its ETag.
   */
  async tree(user: AuthUser, withItems: boolean): Promise<JsonText<EntityTreeNodeDto[]>> {
    const { groupId } = user;
    if (withItems) return JsonText.of(await this.buildTree(groupId, true));
    const version = await this.entities.locationTreeVersion(groupId);
    return this.locationTrees.json(groupId, version, () => this.buildTree(groupId, false));
  }

  /** Locations before items, then by name; every entity once, under its parent. */
  private async buildTree(groupId: string, withItems: boolean): Promise<EntityTreeNodeDto[]> {
    const rows = await this.entities.treeRows(groupId, withItems);
    const nodes = new Map<string, EntityTreeNodeDto>(
      rows.map((row) => [
        row.id,
        { id: row.id, name: row.name, type: row.is_location ? 'location' : 'item', children: [] },
      ]),
    );
    const roots: EntityTreeNodeDto[] = [];
    for (const row of rows) {
      const node = nodes.get(row.id)!;
      const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
      if (parent) parent.children.push(node);
      else if (!row.parent_id && row.is_location) roots.push(node);
    }
    const order = (a: EntityTreeNodeDto, b: EntityTreeNodeDto): number =>
      (a.type === b.type ? 0 : a.type === 'location' ? -1 : 1) || compareByName(a, b);
    const seen = new Set<string>();
    const sort = (list: EntityTreeNodeDto[]): EntityTreeNodeDto[] => {
      const kept = list.filter((node) => !seen.has(node.id));
      for (const node of kept) seen.add(node.id);
      kept.sort(order);
      for (const node of kept) node.children = sort(node.children);
      return kept;
    };
    return sort(roots);
  }

  /** Distinct custom-field names in the group. */
  async fieldNames(user: AuthUser): Promise<string[]> {
    return this.entities.fieldNames(user.groupId);
  }

  /** Distinct text values of one custom field in the group. */
  async fieldValues(user: AuthUser, field: string): Promise<string[]> {
    return this.entities.fieldValues(user.groupId, field);
  }
}
