import { formatAssetId } from './asset-id.js';
import type { EntityStoredDto } from './dto/entity-stored.dto.js';
import type { EntityChildSummaryDto, EntitySummaryDto } from './dto/entity-summary.dto.js';
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
  /** Only for the entity of a summary. */
  detail?: EntityDetailRow | null;
}

export interface EntityViews {
  /** Child summaries of the rows with a position, in row order. */
  shown: EntityChildSummaryDto[];
  /** Summary views of the rows with a detail, in row order. */
  summaries: EntitySummaryDto[];
}

const byName = (a: { name: string; id: string }, b: { name: string; id: string }): number =>
  a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

const money = (value: string | number): number => Number(value);
const day = (value: string | null): string => value ?? '';

/**
 * Turns the rows of one view statement into views: each child summary gets its `parent` (up to
 * the top, built once per entity and shared) and each summary its `location` and `children`.
 */
export function toEntityViews(rows: EntityViewRow[]): EntityViews {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const built = new Map<string, EntityChildSummaryDto>();
  const childSummary = (row: EntityViewRow, depth = 0): EntityChildSummaryDto => {
    const done = built.get(row.id);
    if (done) return done;
    const { photo, ...view } = row.view;
    const parentRow = row.parent_id ? byId.get(row.parent_id) : undefined;
    const summary: EntityChildSummaryDto = {
      ...view,
      assetId: formatAssetId(view.assetId),
      imageId: photo?.imageId ?? null,
      thumbnailId: photo?.thumbnailId ?? null,
      parent: parentRow && depth < 1000 ? childSummary(parentRow, depth + 1) : null,
      tags: view.tags.sort(byName),
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
