import { toAttachmentSummary } from '../attachments/attachment.mapper.js';
import type { AttachmentRecord } from '../attachments/attachment.record.js';
import { toEntityTypeSummary } from '../entity-types/entity-type.mapper.js';
import { toTagSummary } from '../tags/tag.mapper.js';
import { formatAssetId } from './asset-id.js';
import type { EntityStoredDto } from './dto/entity-stored.dto.js';
import type {
  EntityChildSummaryDto,
  EntityFieldDto,
  EntitySummaryDto,
} from './dto/entity-summary.dto.js';
import type { EntityFieldRecord } from './entity-field.record.js';
import type { EntityRecord } from './entity.record.js';

/** What the views of a set of entities need besides the records themselves. */
export interface EntityContext {
  /** Every ancestor of the entities being shown, by id, with type and tags loaded. */
  ancestors: Map<string, EntityRecord>;
  /** Primary photo and its thumbnail, by entity id. */
  photos: Map<string, { imageId: string; thumbnailId: string | null }>;
  /** For locations: total quantity of the non-archived items directly inside, by entity id. */
  itemCounts: Map<string, number>;
}

export interface EntityDetail {
  children: EntityRecord[];
  fields: EntityFieldRecord[];
  attachments: AttachmentRecord[];
}

const money = (value: string | number): number => Number(value);
const day = (value: string | null): string => value ?? '';

/** Expects `entityType` (with `defaultTemplate`) and `tags` loaded, as on every record in the context. */
export function toEntityChildSummary(
  record: EntityRecord,
  context: EntityContext,
): EntityChildSummaryDto {
  const parent = record.parentId ? context.ancestors.get(record.parentId) : undefined;
  const photo = context.photos.get(record.id);
  return {
    id: record.id,
    archived: record.archived,
    assetId: formatAssetId(record.assetId),
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    name: record.name,
    description: record.description,
    entityType: toEntityTypeSummary(record.entityType!),
    imageId: photo?.imageId ?? null,
    thumbnailId: photo?.thumbnailId ?? null,
    insured: record.insured,
    itemCount: record.entityType?.isLocation ? (context.itemCounts.get(record.id) ?? 0) : 0,
    parent: parent ? toEntityChildSummary(parent, context) : null,
    purchasePrice: money(record.purchasePrice),
    quantity: record.quantity,
    soldDate: day(record.soldDate),
    tags: [...(record.tags ?? [])].sort(byName).map(toTagSummary),
  };
}

const byName = (a: { name: string; id: string }, b: { name: string; id: string }): number =>
  a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

export const toEntityField = (record: EntityFieldRecord): EntityFieldDto => ({
  id: record.id,
  type: record.type,
  name: record.name,
  textValue: record.textValue,
  numberValue: record.numberValue,
  booleanValue: record.booleanValue,
});

/** The nearest ancestor whose type is a location. */
function locationOf(record: EntityRecord, context: EntityContext): EntityRecord | undefined {
  const seen = new Set<string>();
  let current = record.parentId ? context.ancestors.get(record.parentId) : undefined;
  while (current && !seen.has(current.id)) {
    if (current.entityType?.isLocation) return current;
    seen.add(current.id);
    current = current.parentId ? context.ancestors.get(current.parentId) : undefined;
  }
  return undefined;
}

/** The summary view (spec §2.1). */
export function toEntitySummary(
  record: EntityRecord,
  context: EntityContext,
  detail: EntityDetail,
): EntitySummaryDto {
  const location = locationOf(record, context);
  return {
    ...toEntityChildSummary(record, context),
    lifetimeWarranty: record.lifetimeWarranty,
    manufacturer: record.manufacturer,
    modelNumber: record.modelNumber,
    serialNumber: record.serialNumber,
    notes: record.notes,
    purchaseDate: day(record.purchaseDate),
    purchaseFrom: record.purchaseFrom,
    soldNotes: record.soldNotes,
    soldPrice: money(record.soldPrice),
    soldTo: record.soldTo,
    syncChildEntityLocations: record.syncChildEntityLocations,
    totalPrice: money(record.purchasePrice) * record.quantity,
    warrantyDetails: record.warrantyDetails,
    warrantyExpires: day(record.warrantyExpires),
    location: location ? toEntityChildSummary(location, context) : null,
    children: detail.children.map((child) => toEntityChildSummary(child, context)),
    fields: detail.fields.map(toEntityField),
    attachments: detail.attachments.map(toAttachmentSummary),
  };
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
