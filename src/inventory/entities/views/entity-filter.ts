import { nameOrder } from '../../../platform/database/name-order.js';
import { parseAssetId } from '../core/asset-id.js';
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
  /**
   * The rows `where` reads as `e`: `entities e`, or with a search the entities it matches (see
   * `searchMatches`).
   */
  from: string;
  where: string;
  params: unknown[];
  /**
   * For a list narrowed by nothing but kind, archived and at most one tag, what is kept for it:
   * its total as an SQL expression over maintained counts (the group's, or the tag's) and, with
   * a tag, `tagWalk`, the condition on the tag's kept matches (`tag_matches m`) that lets a page
   * in name order walk their index. Absent when other filters narrow the list, whose matches are
   * then gathered and counted.
   */
  kept?: { total: string; tagWalk?: string };
}

/**
 * How many entities of group `$1` there are of one kind (`kind`: `t.is_location` or its
 * negation), archived ones included or not: a sum of the maintained counts (entity_counts),
 * not a count of the inventory.
 */
const groupTotal = (kind: string, includeArchived: boolean): string =>
  `(SELECT coalesce(sum(c.entities), 0)::int FROM entity_counts c
    JOIN entity_types t ON t.id = c.entity_type_id
    WHERE c.group_id = $1 AND ${kind}${includeArchived ? '' : ' AND NOT c.archived'})`;

/**
 * How many entities of group `$1` of one kind the tag `tag` (a parameter) matches, carrying it
 * or one of its descendants: a sum of the maintained counts (tag_match_counts); 0 for a tag of
 * another group.
 */
const tagTotal = (tag: string, kind: string, includeArchived: boolean): string =>
  `(SELECT coalesce(sum(c.entities), 0)::int FROM tag_match_counts c
    JOIN entity_types t ON t.id = c.entity_type_id JOIN tags g ON g.id = c.tag_id
    WHERE c.tag_id = ${tag}::uuid AND g.group_id = $1 AND ${kind}${includeArchived ? '' : ' AND NOT c.archived'})`;

/**
 * The kept matches `m` of tag `tag` in group `$1` (those carrying it or one of its descendants)
 * of one kind, archived ones included or not; the kind is read from the matches' own type
 * column, so a walk of them needs no join and reads their index alone. A tag of another group
 * has none.
 */
const tagMatches = (tag: string, kind: string, includeArchived: boolean): string =>
  `m.tag_id = ${tag}::uuid
    AND EXISTS (SELECT 1 FROM tags g WHERE g.id = ${tag}::uuid AND g.group_id = $1)
    AND m.entity_type_id = ANY(ARRAY(SELECT t.id FROM entity_types t WHERE t.group_id = $1 AND ${kind}))${
      includeArchived ? '' : ' AND NOT m.archived'
    }`;

/**
 * The entities of group `$1` whose searched text or one of whose custom-field values contains
 * `pattern` (an ILIKE parameter), as `e`: one bitmap scan of the entities over both the trigram
 * index on their text and their keys (the entities that fields match, found by the trigram index
 * on the values), so the cost follows the matches. `OFFSET 0` keeps the plan from ANDing other
 * filters into that scan: a generic plan would add the kind's type index, and read the bitmap
 * of every item.
 */
const searchMatches = (pattern: string): string =>
  `(SELECT e.* FROM entities e WHERE e.group_id = $1 AND (${ENTITY_SEARCH_TEXT} ILIKE ${pattern}
     OR e.id = ANY(ARRAY(SELECT f.entity_id FROM entity_fields f WHERE f.text_value ILIKE ${pattern})))
   OFFSET 0) e`;

const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The rows and WHERE clause of a list query over `<from> JOIN entity_types t`. All filters
 * are AND-ed. A tag filter matches the entities carrying one of the tags of the group or one of
 * their descendants, read from the kept match sets (tag_matches), so it needs no expansion of
 * the tags first; tags of other groups match nothing.
 */
export function buildEntityFilter(groupId: string, query: ListEntitiesQueryDto): EntityFilter {
  const params: unknown[] = [groupId];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  let search: string | undefined;
  const clauses = ['e.group_id = $1'];
  const kind = query.isLocation ? 't.is_location' : 'NOT t.is_location';
  const includeArchived = query.includeArchived ?? false;
  clauses.push(kind);
  if (!includeArchived) clauses.push('NOT e.archived');
  const unfiltered = clauses.length;

  const q = query.q?.trim();
  if (q) {
    const asset = q.startsWith('#') ? parseAssetId(q.slice(1)) : undefined;
    if (q.startsWith('#') && asset !== undefined) {
      clauses.push(`e.asset_id = ${param(String(asset))}`);
    } else {
      search = param(likePattern(q));
    }
  }
  const tagIds = query.tags?.length ? [...new Set(query.tags)] : undefined;
  const tags = tagIds && param(tagIds.length === 1 ? tagIds[0] : tagIds);
  if (tags) {
    const among =
      tagIds.length === 1 ? `m.tag_id = ${tags}::uuid` : `m.tag_id = ANY(${tags}::uuid[])`;
    clauses.push(
      query.negateTags
        ? `NOT EXISTS (SELECT 1 FROM tag_matches m WHERE m.entity_id = e.id AND ${among})`
        : `e.id = ANY(ARRAY(SELECT m.entity_id FROM tag_matches m WHERE ${among}))`,
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
  const from = search ? searchMatches(search) : 'entities e';
  const where = clauses.join(' AND ');
  if (!search && clauses.length === unfiltered) {
    return { from, where, params, kept: { total: groupTotal(kind, includeArchived) } };
  }
  if (
    !search &&
    clauses.length === unfiltered + 1 &&
    tags &&
    tagIds.length === 1 &&
    !query.negateTags
  ) {
    const kept = {
      total: tagTotal(tags, kind, includeArchived),
      tagWalk: tagMatches(tags, kind, includeArchived),
    };
    return { from, where, params, kept };
  }
  return { from, where, params };
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
