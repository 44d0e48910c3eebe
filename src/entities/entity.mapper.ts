import type { AttachmentRecord } from '../attachments/attachment.record.js';
import { isoDay, isoTimestamp } from '../database/json.sql.js';
import { compareByName } from '../database/name-order.js';
import type { EntityTypeSummaryDto } from '../entity-types/dto/entity-type-summary.dto.js';
import { entityTypeSummaryJson, toEntityTypeSummary } from '../entity-types/entity-type.mapper.js';
import { tagSummaryJson, toTagSummary } from '../tags/tag.mapper.js';
import { formatAssetId } from './asset-id.js';
import type { EntityStoredDto } from './dto/entity-stored.dto.js';
import type {
  EntityChildSummaryDto,
  EntityFieldDto,
  EntitySummaryDto,
} from './dto/entity-summary.dto.js';
import type { EntityFieldRecord } from './entity-field.record.js';
import type { EntityChildSummaryRow, EntityDetailRow } from './entity-view.sql.js';
import type { EntityRecord } from './entity.record.js';

/** A row of the view statements of entity-views.service.ts. */
export interface EntityViewRow {
  /** Place among the entities asked for; null for an ancestor or child shown only around them. */
  position: string | number | null;
  /** Place among the child locations of the entity of a summary; null otherwise. */
  child?: number | null;
  id: string;
  parent_id: string | null;
  is_location: boolean;
  view: EntityChildSummaryRow;
  /** The view of the row's type, on the first row of each type only (ENTITY_TYPE_VIEW). */
  type_view: EntityTypeSummaryDto | null;
  /** Only for the entity of a summary. */
  detail?: EntityDetailRow | null;
}

export interface EntityViews {
  /** Child summaries of the rows with a position, in row order. */
  shown: EntityChildSummaryDto[];
  /** Summary views of the rows with a detail, in row order. */
  summaries: EntitySummaryDto[];
}

const money = (value: string | number): number => Number(value);
const day = (value: string | null): string => value ?? '';

/** A custom field of an entity (spec §2.1). */
export const toEntityField = (record: EntityFieldRecord): EntityFieldDto => ({
  id: record.id,
  type: record.type,
  name: record.name,
  textValue: record.textValue,
  numberValue: Number(record.numberValue),
  booleanValue: record.booleanValue,
});

/** `toEntityField` written as SQL: the custom field row `alias`, as JSON. */
export const entityFieldJson = (alias: string): string => `json_build_object(
  'id', ${alias}.id, 'type', ${alias}.type, 'name', ${alias}.name,
  'textValue', ${alias}.text_value, 'numberValue', ${alias}.number_value,
  'booleanValue', ${alias}.boolean_value)`;

/** What the child summary of an entity needs beyond its row with type and tags. */
export interface EntityChildSummaryExtras {
  /** Its primary photo (the oldest, should there be several), if any. */
  photo: AttachmentRecord | null;
  /** For a location: the total quantity of the non-archived items directly inside. */
  itemCount: number;
  parent: EntityChildSummaryDto | null;
}

/**
 * The child summary view (spec §2.1) of an entity loaded with `entityType` (and its
 * `defaultTemplate`) and `tags`; tags by name.
 */
export const toEntityChildSummary = (
  record: EntityRecord,
  extras: EntityChildSummaryExtras,
): EntityChildSummaryDto => ({
  id: record.id,
  archived: record.archived,
  assetId: formatAssetId(Number(record.assetId)),
  createdAt: record.createdAt.toISOString(),
  updatedAt: record.updatedAt.toISOString(),
  name: record.name,
  description: record.description,
  entityType: toEntityTypeSummary(record.entityType!),
  imageId: extras.photo?.id ?? null,
  thumbnailId: extras.photo ? extras.photo.thumbnailId : null,
  insured: record.insured,
  itemCount: extras.itemCount,
  parent: extras.parent,
  purchasePrice: money(record.purchasePrice),
  quantity: record.quantity,
  soldDate: day(record.soldDate),
  tags: (record.tags ?? []).map(toTagSummary).sort(compareByName),
});

/** The tag summaries of `e`. */
const TAGS_JSON = `(SELECT coalesce(json_agg(${tagSummaryJson('g')}), '[]')
  FROM entity_tags et JOIN tags g ON g.id = et.tag_id WHERE et.entity_id = e.id)`;

/** The primary photo of `e` (the oldest, should there be several). */
const PHOTO_JSON = `(SELECT json_build_object('imageId', a.id, 'thumbnailId', a.thumbnail_id)
  FROM attachments a WHERE a.entity_id = e.id AND a.type = 'photo' AND a."primary"
  ORDER BY a.created_at LIMIT 1)`;

/** For a location: the total quantity of the non-archived items directly inside. */
const ITEM_COUNT = `CASE WHEN t.is_location THEN
    (SELECT coalesce(sum(c.quantity), 0) FROM entities c JOIN entity_types ct ON ct.id = c.entity_type_id
     WHERE c.parent_id = e.id AND NOT c.archived AND NOT ct.is_location)
  ELSE 0 END`;

/**
 * `toEntityChildSummary` written as SQL, for the entity `e` with its type `t` and the type's
 * default template `tpl`: the child summary as JSON, without its `parent` (which
 * `toEntityViews` links from the ancestors shown in the same statement) and with the id of its
 * type instead of the type's view (ENTITY_TYPE_VIEW, sent once per type), with `assetId` the
 * number and the photo as one object (`toEntityViews` formats both).
 */
export const ENTITY_CHILD_SUMMARY_JSON = `json_build_object(
  'id', e.id, 'archived', e.archived, 'assetId', e.asset_id,
  'createdAt', ${isoTimestamp('e.created_at')}, 'updatedAt', ${isoTimestamp('e.updated_at')},
  'name', e.name, 'description', e.description, 'entityTypeId', t.id,
  'photo', ${PHOTO_JSON}, 'insured', e.insured, 'itemCount', ${ITEM_COUNT},
  'purchasePrice', e.purchase_price, 'quantity', e.quantity, 'soldDate', ${isoDay('e.sold_date')},
  'tags', ${TAGS_JSON})`;

/**
 * The type `t` (with its default template `tpl`) of the entity `e` of a view statement as JSON,
 * on the first row of each type and null on the others: a page's entities share a few types, so
 * each type's view is built and sent once, and `toEntityViews` gives it to every entity of the
 * type.
 */
export const ENTITY_TYPE_VIEW = `CASE WHEN row_number() OVER (PARTITION BY t.id) = 1
  THEN ${entityTypeSummaryJson('t', 'tpl')} END`;

/**
 * Turns the rows of one view statement into views: each child summary gets its `parent` (up to
 * the top, built once per entity and shared) and each summary its `location` and `children`.
 */
export function toEntityViews(rows: EntityViewRow[]): EntityViews {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const types = new Map<string, EntityTypeSummaryDto>();
  for (const row of rows) if (row.type_view) types.set(row.type_view.id, row.type_view);
  const built = new Map<string, EntityChildSummaryDto>();
  const childSummary = (row: EntityViewRow, depth = 0): EntityChildSummaryDto => {
    const done = built.get(row.id);
    if (done) return done;
    const { view } = row;
    const parentRow = row.parent_id ? byId.get(row.parent_id) : undefined;
    // Every field by name, in one literal: a page builds hundreds of these.
    const summary: EntityChildSummaryDto = {
      id: view.id,
      archived: view.archived,
      assetId: formatAssetId(view.assetId),
      createdAt: view.createdAt,
      updatedAt: view.updatedAt,
      name: view.name,
      description: view.description,
      entityType: types.get(view.entityTypeId)!,
      imageId: view.photo?.imageId ?? null,
      thumbnailId: view.photo?.thumbnailId ?? null,
      insured: view.insured,
      itemCount: view.itemCount,
      parent: parentRow && depth < 1000 ? childSummary(parentRow, depth + 1) : null,
      purchasePrice: view.purchasePrice,
      quantity: view.quantity,
      soldDate: view.soldDate,
      tags: view.tags.sort(compareByName),
    };
    built.set(row.id, summary);
    return summary;
  };
  /** The nearest ancestor whose type is a location. */
  const locationOf = (row: EntityViewRow): EntityViewRow | undefined => {
    const seen = new Set<string>();
    let current = row.parent_id ? byId.get(row.parent_id) : undefined;
    while (current && !seen.has(current.id)) {
      if (current.is_location) return current;
      seen.add(current.id);
      current = current.parent_id ? byId.get(current.parent_id) : undefined;
    }
    return undefined;
  };

  const shown: EntityChildSummaryDto[] = [];
  const summaries: EntitySummaryDto[] = [];
  const children = rows.filter((row) => row.child !== null && row.child !== undefined);
  for (const row of rows) {
    if (row.position !== null) shown.push(childSummary(row));
    if (row.detail) {
      const location = locationOf(row);
      summaries.push({
        ...childSummary(row),
        ...row.detail,
        location: location ? childSummary(location) : null,
        children: children
          .filter((child) => child.parent_id === row.id)
          .map((child) => childSummary(child)),
      });
    }
  }
  return { shown, summaries };
}

/** The stored view (spec §2.6), with the stored views of the relations the caller loaded. */
export function toEntityStored(
  record: EntityRecord,
  edges: Record<string, unknown> = {},
): EntityStoredDto {
  return {
    archived: record.archived,
    asset_id: Number(record.assetId),
    created_at: record.createdAt.toISOString(),
    description: record.description,
    id: record.id,
    import_ref: record.importRef ?? '',
    insured: record.insured,
    lifetime_warranty: record.lifetimeWarranty,
    manufacturer: record.manufacturer,
    model_number: record.modelNumber,
    name: record.name,
    notes: record.notes,
    purchase_date: day(record.purchaseDate),
    purchase_from: record.purchaseFrom,
    purchase_price: money(record.purchasePrice),
    quantity: record.quantity,
    serial_number: record.serialNumber,
    sold_date: day(record.soldDate),
    sold_notes: record.soldNotes,
    sold_price: money(record.soldPrice),
    sold_to: record.soldTo,
    sync_child_entity_locations: record.syncChildEntityLocations,
    updated_at: record.updatedAt.toISOString(),
    warranty_details: record.warrantyDetails,
    warranty_expires: day(record.warrantyExpires),
    edges,
  };
}
