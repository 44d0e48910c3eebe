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
      .map((field) => ({
        field,
        before: row.changes[field].before ?? null,
        after: row.changes[field].after ?? null,
      })),
  };
}
