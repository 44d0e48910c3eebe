import { nameOrder } from '../database/name-order.js';
import { parseAssetId } from './asset-id.js';
import type { ListEntitiesQueryDto } from './dto/list-entities.query.dto.js';

/**
 * The text that `q` searches: the searched columns joined by a separator nobody types, so a
 * match never spans two columns. A trigram index on this very expression makes it fast; the
 * migration that creates the index must use the same text.
 */
export const ENTITY_SEARCH_TEXT =
  `(e.name || E'\\x1f' || e.description || E'\\x1f' || e.serial_number || E'\\x1f' || ` +
  `e.model_number || E'\\x1f' || e.manufacturer || E'\\x1f' || e.notes)`;

export interface EntityFilter {
  where: string;
  params: unknown[];
  /**
   * For a list narrowed by nothing but kind and archived: an SQL expression for its total from
   * the maintained counts. Absent when other filters narrow the list, which is then counted.
   */
  maintainedTotal?: string;
}

/**
 * How many entities of group `$1` there are of one kind (`kind`: `t.is_location` or its
 * negation), archived ones included or not: a sum of the maintained counts (entity_counts),
 * not a count of the inventory.
 */
const maintainedTotal = (kind: string, includeArchived: boolean): string =>
  `(SELECT coalesce(sum(c.entities), 0)::int FROM entity_counts c
    JOIN entity_types t ON t.id = c.entity_type_id
    WHERE c.group_id = $1 AND ${kind}${includeArchived ? '' : ' AND NOT c.archived'})`;

const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The WHERE clause of a list query over `entities e JOIN entity_types t`. All filters are
 * AND-ed; `tagIds` are the requested tags already expanded with their descendants (undefined
 * when no tag filter was asked for).
 */
export function buildEntityFilter(
  groupId: string,
  query: ListEntitiesQueryDto,
  tagIds: string[] | undefined,
): EntityFilter {
  const params: unknown[] = [groupId];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const clauses = ['e.group_id = $1'];
  const kind = query.isLocation ? 't.is_location' : 'NOT t.is_location';
  clauses.push(kind);
  if (!query.includeArchived) clauses.push('NOT e.archived');
  const unfiltered = clauses.length;

  const q = query.q?.trim();
  if (q) {
    const asset = q.startsWith('#') ? parseAssetId(q.slice(1)) : undefined;
    if (q.startsWith('#') && asset !== undefined) {
      clauses.push(`e.asset_id = ${param(asset)}`);
    } else {
      const pattern = param(likePattern(q));
      // The matches first (trigram indexes), then the entities by key: the cost follows the
      // matches, not the inventory.
      clauses.push(
        `e.id = ANY(ARRAY(SELECT e.id FROM entities e WHERE e.group_id = $1 AND ${ENTITY_SEARCH_TEXT} ILIKE ${pattern}
                          UNION SELECT f.entity_id FROM entity_fields f WHERE f.text_value ILIKE ${pattern}))`,
      );
    }
  }
  if (tagIds !== undefined) {
    const tags = param(tagIds);
    clauses.push(
      query.negateTags
        ? `NOT EXISTS (SELECT 1 FROM entity_tags et WHERE et.entity_id = e.id AND et.tag_id = ANY(${tags}::uuid[]))`
        : `e.id = ANY(ARRAY(SELECT et.entity_id FROM entity_tags et WHERE et.tag_id = ANY(${tags}::uuid[])))`,
    );
  }
  if (query.parentIds?.length) clauses.push(`e.parent_id = ANY(${param(query.parentIds)}::uuid[])`);
  if (query.filterChildren) clauses.push('e.parent_id IS NULL');
  const photo = `EXISTS (SELECT 1 FROM attachments a WHERE a.entity_id = e.id AND a.type = 'photo' AND a."primary")`;
  if (query.onlyWithPhoto) clauses.push(photo);
  if (query.onlyWithoutPhoto) clauses.push(`NOT ${photo}`);

  const pairs = (query.fields ?? [])
    .map((entry) => {
      const at = entry.indexOf('=');
      return at > 0 ? [entry.slice(0, at).trim(), entry.slice(at + 1).trim()] : undefined;
    })
    .filter((pair): pair is string[] => pair !== undefined && pair[0] !== '');
  if (pairs.length > 0) {
    const names = param(pairs.map(([name]) => name));
    const values = param(pairs.map(([, value]) => value));
    clauses.push(
      `EXISTS (SELECT 1 FROM entity_fields f JOIN unnest(${names}::text[], ${values}::text[]) AS p(name, value)
               ON f.name = p.name AND f.text_value = p.value WHERE f.entity_id = e.id)`,
    );
  }
  const where = clauses.join(' AND ');
  return clauses.length === unfiltered
    ? { where, params, maintainedTotal: maintainedTotal(kind, query.includeArchived ?? false) }
    : { where, params };
}

/** ORDER BY for `orderBy`: newest first for the dates, ascending otherwise, name by default. */
export function entityOrder(orderBy: string | undefined): string {
  switch (orderBy) {
    case 'createdAt':
      return 'e.created_at DESC, e.id';
    case 'updatedAt':
      return 'e.updated_at DESC, e.id';
    case 'assetId':
      return 'e.asset_id, e.id';
    default:
      return nameOrder('e');
  }
}
