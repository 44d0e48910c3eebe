import type { EntityRecord } from '../entities/core/entity.record.js';
import type {
  MaintenanceEntryStoredDto,
  MaintenanceEntryStoredEdgesDto,
} from './dto/maintenance-entry-stored.dto.js';
import type {
  MaintenanceEntrySummaryDto,
  MaintenanceEntryWithDetailsDto,
} from './dto/maintenance-entry-summary.dto.js';
import type { MaintenanceEntryRecord } from './maintenance-entry.record.js';

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A `numeric` value as the shortest decimal text: no leading zeros before the integer part and
 * no trailing zeros after the point (`"12.50"` -> `"12.5"`, `"0.00"` -> `"0"`). Anything that is
 * not a plain decimal is returned as it is.
 */
export function formatCost(value: string | number): string {
  const text = String(value);
  const match = DECIMAL.exec(text);
  if (!match) return text;
  const integer = match[2].replace(/^0+(?=\d)/, '');
  const fraction = (match[3] ?? '').replace(/0+$/, '');
  const digits = fraction ? `${integer}.${fraction}` : integer;
  return match[1] && /[1-9]/.test(digits) ? `-${digits}` : digits;
}

const day = (value: string | null): string => value ?? '';

/** The summary view (Homebox's MaintenanceEntry): all strings, unset dates as "". */
export const toMaintenanceEntry = (record: MaintenanceEntryRecord): MaintenanceEntrySummaryDto => ({
  id: record.id,
  completedDate: day(record.date),
  scheduledDate: day(record.scheduledDate),
  name: record.name,
  description: record.description,
  cost: formatCost(record.cost),
});

/** The summary view with the entity's name and id (`itemName`, `itemID`). */
export const toMaintenanceEntryWithDetails = (
  record: MaintenanceEntryRecord,
  entity: Pick<EntityRecord, 'id' | 'name'>,
): MaintenanceEntryWithDetailsDto => ({
  ...toMaintenanceEntry(record),
  itemName: entity.name,
  itemID: entity.id,
});

/** The stored view (spec §2.6): snake_case, `cost` a number, unset dates as "". */
export const toMaintenanceEntryStored = (
  record: MaintenanceEntryRecord,
  edges: MaintenanceEntryStoredEdgesDto = {},
): MaintenanceEntryStoredDto => ({
  cost: Number(record.cost),
  created_at: record.createdAt.toISOString(),
  date: day(record.date),
  description: record.description,
  entity_id: record.entityId,
  id: record.id,
  name: record.name,
  scheduled_date: day(record.scheduledDate),
  updated_at: record.updatedAt.toISOString(),
  edges,
});
