import { namePathsUp } from '../../../platform/database/hierarchy.sql.js';
import { isoDay } from '../../../platform/database/json.sql.js';
import { nameOrder } from '../../../platform/database/name-order.js';

/**
 * The statements of the CSV export and the bill of materials. Both read the entities of a group
 * in batches ordered by id: `$2` is the last id of the previous batch (null for the first) and
 * `$3` the batch size, so each batch is one statement and memory holds a batch or two at most.
 */

/** Distinct custom-field names of the entities of group `$1`, in byte (code point) order. */
export const EXPORT_FIELD_NAMES = `SELECT DISTINCT f.name COLLATE "C" AS name FROM entity_fields f
  JOIN entities e ON e.id = f.entity_id
  WHERE e.group_id = $1 ORDER BY 1`;

/**
 * One batch of the export of group `$1`: every column of each entity with its kind, where it is
 * (the names from the top down to its parent, joined with ` / `; when the parent is an item,
 * down to that item's parent, and the item's import ref beside it), its tag names (by name,
 * joined with `; `) and its custom fields (names and text values, in their order).
 */
export const EXPORT_BATCH = `WITH RECURSIVE batch AS (
    SELECT e.*, t.is_location FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
    WHERE e.group_id = $1 AND ($2::uuid IS NULL OR e.id > $2::uuid)
    ORDER BY e.id LIMIT $3
  ),
  placed AS (
    SELECT b.id,
      CASE WHEN pt.is_location THEN p.id ELSE p.parent_id END AS anchor,
      CASE WHEN pt.is_location THEN '' ELSE coalesce(p.import_ref, '') END AS parent_import_ref
    FROM batch b
    LEFT JOIN entities p ON p.id = b.parent_id AND p.group_id = $1
    LEFT JOIN entity_types pt ON pt.id = p.entity_type_id
  ),
  anchors AS (
    SELECT a.id, a.parent_id, a.name FROM entities a
    WHERE a.group_id = $1 AND a.id IN (SELECT anchor FROM placed)
  ),
  ${namePathsUp('up', 'entities', 'anchors', '$1', "' / '")},
  paths AS (SELECT DISTINCT ON (seed) seed, path FROM up ORDER BY seed, depth DESC)
  SELECT b.id, b.is_location AS "isLocation",
    ${isoDay('b.purchase_date')} AS "purchaseDate",
    ${isoDay('b.warranty_expires')} AS "warrantyExpires",
    ${isoDay('b.sold_date')} AS "soldDate",
    coalesce(b.import_ref, '') AS "importRef", pl.parent_import_ref AS "parentImportRef",
    b.name, b.description, b.notes, b.purchase_from AS "purchaseFrom", b.manufacturer,
    b.model_number AS "modelNumber", b.serial_number AS "serialNumber",
    b.warranty_details AS "warrantyDetails", b.sold_to AS "soldTo", b.sold_notes AS "soldNotes",
    coalesce(paths.path, '') AS location, coalesce(tagged.names, '') AS tags,
    b.asset_id::text AS "assetId", b.quantity, b.purchase_price::text AS "purchasePrice",
    b.sold_price::text AS "soldPrice", b.archived, b.insured,
    b.lifetime_warranty AS "lifetimeWarranty",
    coalesce(fielded.names, '{}') AS "fieldNames", coalesce(fielded.texts, '{}') AS "fieldTexts"
  FROM batch b
  JOIN placed pl ON pl.id = b.id
  LEFT JOIN paths ON paths.seed = pl.anchor
  LEFT JOIN LATERAL (
    SELECT string_agg(g.name, '; ' ORDER BY ${nameOrder('g')}) AS names
    FROM entity_tags et JOIN tags g ON g.id = et.tag_id WHERE et.entity_id = b.id
  ) tagged ON true
  LEFT JOIN LATERAL (
    SELECT array_agg(f.name ORDER BY f.position, f.created_at, f.id) AS names,
           array_agg(f.text_value ORDER BY f.position, f.created_at, f.id) AS texts
    FROM entity_fields f WHERE f.entity_id = b.id
  ) fielded ON true
  ORDER BY b.id`;

/** One batch of the bill of materials of group `$1`: total price = price × quantity, exactly. */
export const BILL_OF_MATERIALS_BATCH = `SELECT e.id, ${isoDay('e.purchase_date')} AS "purchaseDate",
    e.name, e.description, e.manufacturer, e.serial_number AS "serialNumber",
    e.model_number AS "modelNumber", e.quantity, e.purchase_price::text AS price,
    (e.purchase_price * e.quantity::numeric)::text AS "totalPrice"
  FROM entities e
  WHERE e.group_id = $1 AND ($2::uuid IS NULL OR e.id > $2::uuid)
  ORDER BY e.id LIMIT $3`;
