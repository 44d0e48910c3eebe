import type { AttachmentRecord } from '../../attachments/attachment.record.js';
import { MAX_HIERARCHY_DEPTH } from '../../../platform/database/hierarchy.sql.js';
import { jsonObject } from '../../../platform/database/json.sql.js';
import { compareByName } from '../../../platform/database/name-order.js';
import { toEntityTypeSummary } from '../../entity-types/entity-type.mapper.js';
import { toTagSummary } from '../../tags/tag.mapper.js';
import { formatAssetId } from '../core/asset-id.js';
import type { EntityStoredDto } from './dto/entity-stored.dto.js';
import type { EntityChildSummaryDto, EntityFieldDto } from './dto/entity-summary.dto.js';
import type { EntityFieldRecord } from '../core/entity-field.record.js';
import type { EntityRecord } from '../core/entity.record.js';

/** A row of the view statements of entity-views.service.ts. */
export interface EntityViewRow {
  /** Place among the entities asked for; null for an ancestor or child shown only around them. */
  position: string | number | null;
  /** Place among the child locations of the entity of a summary; null otherwise. */
  child?: number | null;
  id: string;
  parent_id: string | null;
  is_location: boolean;
  /** The child summary as JSON text, less its `parent` and the closing brace. */
  view: string;
  /** Pages only: the purchase price of an entity not sold, null when sold. */
  price?: number | null;
  /** Only for the entity of a summary: what it has beyond the child summary, as a JSON object. */
  detail?: string | null;
}

export interface EntityViews {
  /** Child summaries (JSON text) of the rows with a position, in row order. */
  shown: string[];
  /** Summary views (JSON text) of the rows with a detail, in row order. */
  summaries: string[];
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
export const entityFieldJson = (alias: string): string =>
  jsonObject({
    id: `${alias}.id`,
    type: `${alias}.type`,
    name: `${alias}.name`,
    textValue: `${alias}.text_value`,
    numberValue: `${alias}.number_value`,
    booleanValue: `${alias}.boolean_value`,
  });

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
  assetId: formatAssetId(record.assetId),
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

/** The parts of `linkEntityViews`' rows that are JSON text of a view (entity-view.sql.ts). */
type ViewText = string;

/**
 * Links the rows of one view statement (entity-view.sql.ts) into views, as JSON text: each
 * child summary gets its `parent` (up to the top, written once per entity and shared), each
 * summary its detail, `location` and `children`. Nothing is parsed: the views are joined as the
 * database wrote them.
 */
export function linkEntityViews(rows: EntityViewRow[]): EntityViews {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const linked = new Map<string, ViewText>();
  const childSummary = (row: EntityViewRow, depth = 0): ViewText => {
    const done = linked.get(row.id);
    if (done !== undefined) return done;
    const parentRow = row.parent_id ? byId.get(row.parent_id) : undefined;
    const parent =
      parentRow && depth < MAX_HIERARCHY_DEPTH ? childSummary(parentRow, depth + 1) : 'null';
    const view = `${row.view},"parent":${parent}}`;
    linked.set(row.id, view);
    return view;
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

  const shown: ViewText[] = [];
  const summaries: ViewText[] = [];
  const children = rows.filter((row) => row.child !== null && row.child !== undefined);
  for (const row of rows) {
    if (row.position !== null) shown.push(childSummary(row));
    if (row.detail) {
      const own = childSummary(row);
      const location = locationOf(row);
      const childViews = children
        .filter((child) => child.parent_id === row.id)
        .map((child) => childSummary(child));
      summaries.push(
        `${own.slice(0, -1)},${row.detail.slice(1, -1)},"location":${
          location ? childSummary(location) : 'null'
        },"children":[${childViews.join(',')}]}`,
      );
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
    asset_id: BigInt(record.assetId),
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
