import { attachmentSummaryJson } from '../attachments/attachment.mapper.js';
import type { AttachmentSummaryDto } from '../attachments/dto/attachment.dto.js';
import { ancestors } from '../database/hierarchy.sql.js';
import { isoDay } from '../database/json.sql.js';
import { nameOrder } from '../database/name-order.js';
import type { TagSummaryDto } from '../tags/dto/tag-summary.dto.js';
import type { EntityFilter } from './entity-filter.js';
import type { EntityFieldDto } from './dto/entity-summary.dto.js';
import { ENTITY_CHILD_SUMMARY_JSON, ENTITY_TYPE_VIEW, entityFieldJson } from './entity.mapper.js';

/**
 * The entity views of spec §2.1 written as SQL: PostgreSQL builds each view as JSON, so a page
 * of entities with their ancestors, types, tags, photos and item counts is one statement and
 * one parse. The fragments expect `entities e` joined by `VIEW_JOINS`.
 */

/** The type `t` of `e` and its default template `tpl`. */
export const VIEW_JOINS = `JOIN entity_types t ON t.id = e.entity_type_id
  LEFT JOIN entity_templates tpl ON tpl.id = t.default_template_id`;

/** The child summary of `e`, as `ENTITY_CHILD_SUMMARY_JSON` (entity.mapper.ts) builds it. */
const CHILD_SUMMARY = ENTITY_CHILD_SUMMARY_JSON;

/** What the summary view has beyond the child summary, less `location` and `children`. */
export const DETAIL = `json_build_object(
  'lifetimeWarranty', e.lifetime_warranty, 'manufacturer', e.manufacturer,
  'modelNumber', e.model_number, 'serialNumber', e.serial_number, 'notes', e.notes,
  'purchaseDate', ${isoDay('e.purchase_date')}, 'purchaseFrom', e.purchase_from,
  'soldNotes', e.sold_notes, 'soldPrice', e.sold_price, 'soldTo', e.sold_to,
  'syncChildEntityLocations', e.sync_child_entity_locations,
  'totalPrice', e.purchase_price::float8 * e.quantity,
  'warrantyDetails', e.warranty_details, 'warrantyExpires', ${isoDay('e.warranty_expires')},
  'fields', (SELECT coalesce(json_agg(${entityFieldJson('f')}
    ORDER BY f.position, f.created_at, f.id), '[]') FROM entity_fields f WHERE f.entity_id = e.id),
  'attachments', (SELECT coalesce(json_agg(${attachmentSummaryJson('a', 'th')}
    ORDER BY a.created_at, a.id), '[]')
    FROM attachments a LEFT JOIN attachments th ON th.id = a.thumbnail_id
    WHERE a.entity_id = e.id AND a.type <> 'thumbnail'))`;

/**
 * `chain(id, parent_id, depth)`: the rows of `seed(id, parent_id, ...)` and all their ancestors
 * in the group `groupParam`; a recursive CTE, so the statement must say `WITH RECURSIVE`.
 */
export const ancestorsOf = (seed: string, groupParam: string): string =>
  ancestors('chain', 'entities', seed, groupParam);

/** The child summaries of the entities `$2` of group `$1`, with all their ancestors. */
export const CHILD_SUMMARIES = `WITH RECURSIVE seed AS (
    SELECT e.id, e.parent_id, ordinality AS position
    FROM unnest($2::uuid[]) WITH ORDINALITY AS given(id, ordinality)
    JOIN entities e ON e.id = given.id AND e.group_id = $1
  ),
  ${ancestorsOf('seed', '$1')}
  SELECT seed.position, e.id, e.parent_id, t.is_location, ${CHILD_SUMMARY} AS view,
         ${ENTITY_TYPE_VIEW} AS type_view
  FROM (SELECT DISTINCT id FROM chain) shown
  JOIN entities e ON e.id = shown.id ${VIEW_JOINS}
  LEFT JOIN seed ON seed.id = e.id
  ORDER BY seed.position`;

/**
 * The summary of entity `$2` of group `$1`: its view with the detail, its ancestors and its
 * child locations (by name).
 */
export const SUMMARY = `WITH RECURSIVE seed AS (
    SELECT e.id, e.parent_id, 1::bigint AS position FROM entities e WHERE e.id = $2 AND e.group_id = $1
  ),
  ${ancestorsOf('seed', '$1')},
  shown AS (
    SELECT DISTINCT id, NULL::int AS child FROM chain
    UNION ALL
    SELECT c.id, row_number() OVER (ORDER BY ${nameOrder('c')})::int FROM entities c
    JOIN entity_types ct ON ct.id = c.entity_type_id
    WHERE c.group_id = $1 AND c.parent_id = $2 AND ct.is_location
  )
  SELECT seed.position, shown.child, e.id, e.parent_id, t.is_location,
         ${CHILD_SUMMARY} AS view, ${ENTITY_TYPE_VIEW} AS type_view,
         CASE WHEN seed.position IS NOT NULL THEN ${DETAIL} END AS detail
  FROM shown JOIN entities e ON e.id = shown.id ${VIEW_JOINS}
  LEFT JOIN seed ON seed.id = e.id
  ORDER BY seed.position, shown.child`;

/** The columns a page is ordered by (entity-filter.ts's `entityOrder`), kept with each match. */
const ORDER_COLUMNS = 'e.id, e.parent_id, e.name, e.created_at, e.updated_at, e.asset_id';

/**
 * The views of one page of the entities that pass `filter` (entity-filter.ts, over `entities e
 * JOIN entity_types t`, the group `$1`), in `order`, `limit` and `offset` the parameters of the
 * page (a null limit: all), with the total before paging on every row and one row even for an
 * empty page.
 *
 * A list narrowed by nothing but kind, archived and at most one tag takes its total from what is
 * kept for it (`filter.kept`) and stops at the page: unfiltered, it walks the group's entities in
 * `order`; by one tag in name order, it walks that tag's kept matches (tag_matches) in their
 * name-order index. A narrower list gathers its matches once (each filter finds its own by index)
 * and both counts them and takes the page from them, so its cost follows its matches, not the
 * inventory.
 */
export const pageOfViews = (
  filter: Pick<EntityFilter, 'where' | 'kept'>,
  order: string,
  limit: string,
  offset: string,
): string => {
  const { where, kept } = filter;
  const page = (from: string, by = order): string =>
    `${from} ORDER BY ${by} LIMIT ${limit}::bigint OFFSET ${offset}::bigint`;
  const positioned = (from: string): string =>
    `SELECT id, parent_id, row_number() OVER () AS position FROM (${page(from)}) page`;
  let matches = '';
  let seed: string;
  let total: string;
  if (kept?.tagWalk && order === nameOrder('e')) {
    seed = `SELECT e.id, e.parent_id, walked.position FROM (
      SELECT entity_id, row_number() OVER () AS position FROM (
        ${page(`SELECT m.entity_id FROM tag_matches m WHERE ${kept.tagWalk}`, nameOrder('m', 'entity_id'))}
      ) walk
    ) walked JOIN entities e ON e.id = walked.entity_id AND e.group_id = $1`;
    total = kept.total;
  } else if (kept) {
    seed = positioned(
      `SELECT e.id, e.parent_id FROM entities e JOIN entity_types t ON t.id = e.entity_type_id WHERE ${where}`,
    );
    total = kept.total;
  } else {
    matches = `matches AS MATERIALIZED (
    SELECT ${ORDER_COLUMNS} FROM entities e JOIN entity_types t ON t.id = e.entity_type_id WHERE ${where}
  ),`;
    seed = positioned('SELECT e.id, e.parent_id FROM matches e');
    total = '(SELECT count(*)::int FROM matches)';
  }
  return `WITH RECURSIVE ${matches} seed AS (
    ${seed}
  ),
  ${ancestorsOf('seed', '$1')},
  shown AS (
    SELECT seed.position, e.id, e.parent_id, t.is_location, ${CHILD_SUMMARY} AS view,
           ${ENTITY_TYPE_VIEW} AS type_view
    FROM (SELECT DISTINCT id FROM chain) ids
    JOIN entities e ON e.id = ids.id ${VIEW_JOINS}
    LEFT JOIN seed ON seed.id = e.id
  )
  SELECT counted.total, shown.*
  FROM (SELECT ${total} AS total) counted
  LEFT JOIN shown ON true
  ORDER BY shown.position`;
};

/** `ENTITY_CHILD_SUMMARY_JSON` as it arrives. */
export interface EntityChildSummaryRow {
  id: string;
  archived: boolean;
  assetId: number;
  createdAt: string;
  updatedAt: string;
  name: string;
  description: string;
  entityTypeId: string;
  photo: { imageId: string; thumbnailId: string | null } | null;
  insured: boolean;
  itemCount: number;
  purchasePrice: number;
  quantity: number;
  soldDate: string;
  tags: TagSummaryDto[];
}

/** `DETAIL` as it arrives. */
export interface EntityDetailRow {
  lifetimeWarranty: boolean;
  manufacturer: string;
  modelNumber: string;
  serialNumber: string;
  notes: string;
  purchaseDate: string;
  purchaseFrom: string;
  soldNotes: string;
  soldPrice: number;
  soldTo: string;
  syncChildEntityLocations: boolean;
  totalPrice: number;
  warrantyDetails: string;
  warrantyExpires: string;
  fields: EntityFieldDto[];
  attachments: AttachmentSummaryDto[];
}
