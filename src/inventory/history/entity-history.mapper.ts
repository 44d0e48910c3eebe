import type { HistoryEntryDto } from './dto/history-entry.dto.js';
import type { HistoryRow } from './entity-history.repository.js';

/** A history row as the API shows it: its changes as a list by field name. */
export function toHistoryEntry(row: HistoryRow): HistoryEntryDto {
  const { type, id, name, apiKey, issuer } = row.actor;
  return {
    id: row.id,
    entityId: row.entity_id,
    entityName: row.entity_name,
    action: row.action,
    operation: row.operation,
    changedAt: row.changed_at.toISOString(),
    actor: { type, id, name, apiKey, issuer },
    changes: Object.keys(row.changes)
      .sort()
      .map((field) =>
        field === 'assetId'
          ? { field, before: exact(row.asset_id_before), after: exact(row.asset_id_after) }
          : {
              field,
              before: row.changes[field].before ?? null,
              after: row.changes[field].after ?? null,
            },
      ),
  };
}

/** An asset id of the history as a `bigint` (written as a JSON number with all its digits). */
const exact = (text: string | null): bigint | null =>
  text !== null && /^-?\d+$/.test(text) ? BigInt(text) : null;
