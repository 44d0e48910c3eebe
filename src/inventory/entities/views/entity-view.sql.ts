import { attachmentSummaryJson } from './attachments/attachment.mapper.js';
import { ancestors } from '../../../platform/database/hierarchy.sql.js';
import {
  isoDay,
  isoTimestamp,
  jsonArray,
  jsonObject,
} from '../../../platform/database/json.sql.js';
import { nameOrder } from '../../../platform/database/name-order.js';
import { entityTypeSummaryJson } from '../../entity-types/entity-type.mapper.js';
import { tagSummaryJson } from '../../tags/tag.mapper.js';
import { assetIdSql } from '../core/asset-id.js';
import type { EntityFilter } from './entity-filter.js';
import { entityFieldJson } from './entity.mapper.js';

/**
 * The entity views of spec §2.1 written by PostgreSQL as JSON text, which Trove sends as it is:
 * a page of entities with their ancestors, types, tags, photos and item counts is one statement,
 * and no view is parsed or built again in Trove. Each statement returns one row per entity shown
 * (those asked for and all their ancestors) with its child summary as text, less its `parent` and
 * the closing brace (`view`), which `linkEntityViews` (entity.mapper.ts) adds by linking the rows.
 *
 * Every statement starts from a CTE `shown_ids(id)` of distinct entities of the group `$1`, and
 * `VIEWS` builds their views set by set: each tag and type shown is written once, and the tags,
 * photos and item counts of all the entities are read in one pass each, not once per entity,
 * each by key from an array of the ids (so that the plan reads them by index however many rows
 * it expects: the statements are prepared and run with generic plans, see
 * connection-settings.ts).
 */

/**
 * `views(id, parent_id, is_location, price, view)` of the entities `shown_ids`: `view` is the
 * child summary as JSON text without `parent` and the closing brace; `price` the purchase price
 * of an entity not sold (null when sold), which a page sums. Item counts are read from the sums
 * the database keeps per parent and child type (entity_child_items).
 */
const VIEWS = `links AS (
    SELECT et.entity_id, et.tag_id FROM entity_tags et WHERE et.entity_id = ANY(ARRAY(SELECT id FROM shown_ids))
  ),
  tag_views AS (
    SELECT g.id, g.name, ${tagSummaryJson('g')}::text AS view FROM tags g
    WHERE g.id = ANY(ARRAY(SELECT DISTINCT tag_id FROM links))
  ),
  tag_lists AS (
    SELECT l.entity_id, '[' || string_agg(g.view, ',' ORDER BY ${nameOrder('g')}) || ']' AS views
    FROM links l JOIN tag_views g ON g.id = l.tag_id GROUP BY l.entity_id
  ),
  photos AS (
    SELECT DISTINCT ON (a.entity_id) a.entity_id, a.id, a.thumbnail_id FROM attachments a
    WHERE a.entity_id = ANY(ARRAY(SELECT id FROM shown_ids)) AND a.type = 'photo' AND a."primary"
    ORDER BY a.entity_id, a.created_at
  ),
  item_counts AS (
    SELECT i.parent_id, sum(i.quantity)::float8 AS items FROM entity_child_items i
    JOIN entity_types ct ON ct.id = i.entity_type_id
    WHERE i.parent_id = ANY(ARRAY(SELECT id FROM shown_ids)) AND NOT ct.is_location
    GROUP BY i.parent_id
  ),
  type_views AS (
    SELECT t.id, t.is_location, ${entityTypeSummaryJson('t', 'tpl')}::text AS view
    FROM entity_types t LEFT JOIN entity_templates tpl ON tpl.id = t.default_template_id
    WHERE t.group_id = $1
  ),
  views AS (
    SELECT e.id, e.parent_id, t.is_location,
      CASE WHEN e.sold_date IS NULL THEN e.purchase_price::float8 END AS price,
      left(row_to_json(v)::text, -1) || ',"entityType":' || t.view
        || ',"tags":' || coalesce(tl.views, '[]') AS view
    FROM shown_ids s JOIN entities e ON e.id = s.id
    JOIN type_views t ON t.id = e.entity_type_id
    LEFT JOIN tag_lists tl ON tl.entity_id = e.id
    LEFT JOIN photos ph ON ph.entity_id = e.id
    LEFT JOIN item_counts ic ON ic.parent_id = e.id,
    LATERAL (SELECT e.id, e.archived, ${assetIdSql('e.asset_id')} AS "assetId",
      ${isoTimestamp('e.created_at')} AS "createdAt", ${isoTimestamp('e.updated_at')} AS "updatedAt",
      e.name, e.description, ph.id AS "imageId", ph.thumbnail_id AS "thumbnailId", e.insured,
      CASE WHEN t.is_location THEN coalesce(ic.items, 0) ELSE 0 END AS "itemCount",
      e.purchase_price AS "purchasePrice", e.quantity, ${isoDay('e.sold_date')} AS "soldDate") v
  )`;

/** What the summary view has beyond the child summary, less `location` and `children`. */
export const DETAIL = jsonObject({
  lifetimeWarranty: 'e.lifetime_warranty',
  manufacturer: 'e.manufacturer',
  modelNumber: 'e.model_number',
  serialNumber: 'e.serial_number',
  notes: 'e.notes',
  purchaseDate: isoDay('e.purchase_date'),
  purchaseFrom: 'e.purchase_from',
  soldNotes: 'e.sold_notes',
  soldPrice: 'e.sold_price',
  soldTo: 'e.sold_to',
  syncChildEntityLocations: 'e.sync_child_entity_locations',
  totalPrice: 'e.purchase_price::float8 * e.quantity',
  warrantyDetails: 'e.warranty_details',
  warrantyExpires: isoDay('e.warranty_expires'),
  fields: jsonArray(
    entityFieldJson('f'),
    'FROM entity_fields f WHERE f.entity_id = e.id',
    'f.position, f.created_at, f.id',
  ),
  attachments: jsonArray(
    attachmentSummaryJson('a', 'th'),
    `FROM attachments a LEFT JOIN attachments th ON th.id = a.thumbnail_id
     WHERE a.entity_id = e.id AND a.type <> 'thumbnail'`,
    'a.created_at, a.id',
  ),
});

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
  ${ancestorsOf('seed', '$1')},
  shown_ids AS (SELECT DISTINCT id FROM chain),
  ${VIEWS}
  SELECT seed.position, views.id, views.parent_id, views.is_location, views.view
  FROM views LEFT JOIN seed ON seed.id = views.id
  ORDER BY seed.position`;

/**
 * The summary of entity `$2` of group `$1`: its view with the detail (as JSON text), its
 * ancestors and its child locations (`child`: their place by name).
 */
export const SUMMARY = `WITH RECURSIVE seed AS (
    SELECT e.id, e.parent_id, 1::bigint AS position FROM entities e WHERE e.id = $2 AND e.group_id = $1
  ),
  ${ancestorsOf('seed', '$1')},
  children AS (
    SELECT c.id, row_number() OVER (ORDER BY ${nameOrder('c')})::int AS child FROM entities c
    JOIN entity_types ct ON ct.id = c.entity_type_id
    WHERE c.group_id = $1 AND c.parent_id = $2 AND ct.is_location
  ),
  shown_ids AS (SELECT id FROM chain UNION SELECT id FROM children),
  ${VIEWS}
  SELECT seed.position, children.child, views.id, views.parent_id, views.is_location, views.view,
         CASE WHEN seed.position IS NOT NULL THEN ${DETAIL}::text END AS detail
  FROM views JOIN entities e ON e.id = views.id
  LEFT JOIN seed ON seed.id = views.id
  LEFT JOIN children ON children.id = views.id
  ORDER BY seed.position, children.child`;

/** The columns a page is ordered by (entity-filter.ts's `entityOrder`), kept with each match. */
const ORDER_COLUMNS = 'e.id, e.parent_id, e.name, e.created_at, e.updated_at, e.asset_id';

/**
 * The views of one page of the entities that pass `filter` (entity-filter.ts, over `<filter.from>
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
  filter: Pick<EntityFilter, 'from' | 'where' | 'kept'>,
  order: string,
  limit: string,
  offset: string,
): string => {
  const { from, where, kept } = filter;
  const page = (rows: string, by = order): string =>
    `${rows} ORDER BY ${by} LIMIT ${limit}::bigint OFFSET ${offset}::bigint`;
  let matches = '';
  let pageIds: string;
  let total: string;
  if (kept?.tagWalk && order === nameOrder('e')) {
    pageIds = page(
      `SELECT m.entity_id FROM tag_matches m WHERE ${kept.tagWalk}`,
      nameOrder('m', 'entity_id'),
    );
    total = kept.total;
  } else if (kept) {
    pageIds = page(
      `SELECT e.id FROM ${from} JOIN entity_types t ON t.id = e.entity_type_id WHERE ${where}`,
    );
    total = kept.total;
  } else {
    matches = `matches AS MATERIALIZED (
    SELECT ${ORDER_COLUMNS} FROM ${from} JOIN entity_types t ON t.id = e.entity_type_id WHERE ${where}
  ),`;
    pageIds = page('SELECT e.id FROM matches e');
    total = '(SELECT count(*)::int FROM matches)';
  }
  // The page's ids as an array: whatever the limit, the plan expects a page of a few rows, so a
  // generic plan (prepared statements) walks up from them by key as a custom plan would.
  return `WITH RECURSIVE ${matches} seed AS (
    SELECT e.id, e.parent_id, page.position
    FROM unnest(ARRAY(${pageIds})) WITH ORDINALITY AS page(id, position)
    JOIN entities e ON e.id = page.id AND e.group_id = $1
  ),
  ${ancestorsOf('seed', '$1')},
  shown_ids AS (SELECT DISTINCT id FROM chain),
  ${VIEWS}
  SELECT counted.total, seed.position, views.id, views.parent_id, views.is_location, views.price,
         views.view
  FROM (SELECT ${total} AS total) counted
  LEFT JOIN views ON true
  LEFT JOIN seed ON seed.id = views.id
  ORDER BY seed.position`;
};

/**
 * The ids of the entities that pass `filter` (over its rows joined to `entity_types t`), in
 * `order`, at most `limit` (a parameter) of them.
 */
export const matchingIdsOf = (
  filter: Pick<EntityFilter, 'from' | 'where'>,
  order: string,
  limit: string,
): string =>
  `SELECT e.id FROM ${filter.from} JOIN entity_types t ON t.id = e.entity_type_id
  WHERE ${filter.where} ORDER BY ${order} LIMIT ${limit}::bigint`;

/** The ids of the entities of group `$1` with asset id `$2`, by name. */
export const IDS_BY_ASSET_ID = `SELECT e.id FROM entities e WHERE e.group_id = $1 AND e.asset_id = $2
  ORDER BY ${nameOrder('e')}`;

/** Entity `$1` of group `$2` and its ancestors with their kind, from the top down. */
export const PATH = `WITH RECURSIVE
  start AS (SELECT id, parent_id FROM entities WHERE id = $1 AND group_id = $2),
  ${ancestors('up', 'entities', 'start', '$2')}
  SELECT up.id, e.name, t.is_location FROM up
  JOIN entities e ON e.id = up.id JOIN entity_types t ON t.id = e.entity_type_id
  ORDER BY up.depth DESC`;

/** The entities of group `$1` with their parent and kind. */
export const TREE_ROWS = `SELECT e.id, e.name, e.parent_id, t.is_location FROM entities e
  JOIN entity_types t ON t.id = e.entity_type_id
  WHERE e.group_id = $1`;

/**
 * The locations of group `$1` with their parent: read through the index of their types, so
 * never a row of an item, however many items the group has.
 */
export const LOCATION_TREE_ROWS = `SELECT e.id, e.name, e.parent_id, true AS is_location FROM entities e
  WHERE e.entity_type_id = ANY(ARRAY(SELECT t.id FROM entity_types t WHERE t.group_id = $1 AND t.is_location))
    AND e.group_id = $1`;

/**
 * The version of group `$1`'s tree of locations (`location_versions.tree`): it grows with every
 * committed change of the tree; 0 before the first.
 */
export const LOCATION_TREE_VERSION = `SELECT coalesce(max(v.tree), 0)::text AS version
  FROM location_versions v WHERE v.group_id = $1`;

/** Distinct custom-field names of the entities of group `$1`. */
export const FIELD_NAMES = `SELECT DISTINCT f.name FROM entity_fields f JOIN entities e ON e.id = f.entity_id
  WHERE e.group_id = $1 ORDER BY f.name`;

/** Distinct non-empty text values of the custom field `$2` of the entities of group `$1`. */
export const FIELD_VALUES = `SELECT DISTINCT f.text_value AS value FROM entity_fields f
  JOIN entities e ON e.id = f.entity_id
  WHERE e.group_id = $1 AND f.name = $2 AND f.text_value <> '' ORDER BY f.text_value`;
