import type { AttachmentSummaryDto } from '../attachments/dto/attachment.dto.js';
import { isoDay, isoTimestamp } from '../database/json.sql.js';
import type { EntityTypeSummaryDto } from '../entity-types/dto/entity-type-summary.dto.js';
import { entityTypeSummaryJson } from '../entity-types/entity-type.mapper.js';
import type { TagSummaryDto } from '../tags/dto/tag-summary.dto.js';
import { tagSummaryJson } from '../tags/tag.mapper.js';
import type { EntityFieldDto } from './dto/entity-summary.dto.js';

/**
 * The entity views of spec §2.1 written as SQL: PostgreSQL builds each view as JSON, so a page
 * of entities with their ancestors, types, tags, photos and item counts is one statement and
 * one parse. The fragments expect `entities e` joined by `VIEW_JOINS`.
 */

const iso = isoTimestamp;
const day = isoDay;

/** The type `t` of `e` and its default template `tpl`. */
export const VIEW_JOINS = `JOIN entity_types t ON t.id = e.entity_type_id
  LEFT JOIN entity_templates tpl ON tpl.id = t.default_template_id`;

/** The tag summaries (spec §2.5) of `e`. */
const TAGS = `(SELECT coalesce(json_agg(${tagSummaryJson('g')}), '[]')
  FROM entity_tags et JOIN tags g ON g.id = et.tag_id WHERE et.entity_id = e.id)`;

/** The primary photo of `e` (the oldest, should there be several). */
const PHOTO = `(SELECT json_build_object('imageId', a.id, 'thumbnailId', a.thumbnail_id) FROM attachments a
  WHERE a.entity_id = e.id AND a.type = 'photo' AND a."primary" ORDER BY a.created_at LIMIT 1)`;

/** For a location: the total quantity of the non-archived items directly inside. */
const ITEM_COUNT = `CASE WHEN t.is_location THEN
    (SELECT coalesce(sum(c.quantity), 0) FROM entities c JOIN entity_types ct ON ct.id = c.entity_type_id
     WHERE c.parent_id = e.id AND NOT c.archived AND NOT ct.is_location)
  ELSE 0 END`;

/**
 * The child summary of `e` without its `parent` (which the mapper links from the ancestors
 * shown in the same statement); `assetId` is the number, formatted by the mapper.
 */
export const CHILD_SUMMARY = `json_build_object(
  'id', e.id, 'archived', e.archived, 'assetId', e.asset_id,
  'createdAt', ${iso('e.created_at')}, 'updatedAt', ${iso('e.updated_at')},
  'name', e.name, 'description', e.description, 'entityType', ${entityTypeSummaryJson('t', 'tpl')},
  'photo', ${PHOTO}, 'insured', e.insured, 'itemCount', ${ITEM_COUNT},
  'purchasePrice', e.purchase_price, 'quantity', e.quantity, 'soldDate', ${day('e.sold_date')},
  'tags', ${TAGS})`;

/** The thumbnail of attachment `a`, stored view (spec §2.6). */
const THUMBNAIL = `CASE WHEN th.id IS NOT NULL THEN json_build_object(
  'id', th.id, 'created_at', ${iso('th.created_at')}, 'updated_at', ${iso('th.updated_at')},
  'mime_type', th.mime_type, 'path', th.path, 'primary', th."primary", 'title', th.title,
  'type', th.type, 'edges', '{}'::json) END`;

/** What the summary view has beyond the child summary, less `location` and `children`. */
export const DETAIL = `json_build_object(
  'lifetimeWarranty', e.lifetime_warranty, 'manufacturer', e.manufacturer,
  'modelNumber', e.model_number, 'serialNumber', e.serial_number, 'notes', e.notes,
  'purchaseDate', ${day('e.purchase_date')}, 'purchaseFrom', e.purchase_from,
  'soldNotes', e.sold_notes, 'soldPrice', e.sold_price, 'soldTo', e.sold_to,
  'syncChildEntityLocations', e.sync_child_entity_locations,
  'totalPrice', e.purchase_price::float8 * e.quantity,
  'warrantyDetails', e.warranty_details, 'warrantyExpires', ${day('e.warranty_expires')},
  'fields', (SELECT coalesce(json_agg(json_build_object(
      'id', f.id, 'type', f.type, 'name', f.name, 'textValue', f.text_value,
      'numberValue', f.number_value, 'booleanValue', f.boolean_value)
    ORDER BY f.position, f.created_at, f.id), '[]') FROM entity_fields f WHERE f.entity_id = e.id),
  'attachments', (SELECT coalesce(json_agg(json_build_object(
      'id', a.id, 'createdAt', ${iso('a.created_at')}, 'updatedAt', ${iso('a.updated_at')},
      'mimeType', a.mime_type, 'path', a.path, 'primary', a."primary", 'title', a.title,
      'type', a.type, 'thumbnail', ${THUMBNAIL})
    ORDER BY a.created_at, a.id), '[]')
    FROM attachments a LEFT JOIN attachments th ON th.id = a.thumbnail_id
    WHERE a.entity_id = e.id AND a.type <> 'thumbnail'))`;

/**
 * `chain(id, parent_id, depth)`: the rows of `seed(id, parent_id, ...)` and all their ancestors
 * in the group `groupParam`; a recursive CTE, so the statement must say `WITH RECURSIVE`.
 */
export const ancestorsOf = (seed: string, groupParam: string): string =>
  `chain(id, parent_id, depth) AS (
    SELECT id, parent_id, 0 FROM ${seed}
    UNION
    SELECT p.id, p.parent_id, c.depth + 1 FROM entities p JOIN chain c ON p.id = c.parent_id
    WHERE p.group_id = ${groupParam} AND c.depth < 1000
  )`;

/** `CHILD_SUMMARY` as it arrives. */
export interface EntityChildSummaryRow {
  id: string;
  archived: boolean;
  assetId: number;
  createdAt: string;
  updatedAt: string;
  name: string;
  description: string;
  entityType: EntityTypeSummaryDto;
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
