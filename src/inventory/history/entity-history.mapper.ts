import type { HistoryActorDto, HistoryEntryDto } from './dto/history-entry.dto.js';
import type { HistoryAction } from './entity-history.record.js';
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

/** What each kind of change did to the entity, as people read it. */
export const HISTORY_KINDS: Record<HistoryAction, string> = {
  create: 'created',
  update: 'updated',
  delete: 'deleted',
};

/** Who made a change, as people read it: the user's name, and the API key they used. */
export function historyActorText(actor: HistoryActorDto): string {
  if (actor.type === 'system') return actor.name ?? 'Trove';
  const name = actor.name ?? 'a former member';
  return actor.apiKey ? `${name} (API key ${actor.apiKey.name})` : name;
}

/** A field's value before or after a change as text: "" for none, JSON for lists and objects. */
export function historyValueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  return JSON.stringify(value);
}

/** The columns of the history as CSV: one record per changed field. */
export const HISTORY_CSV_HEADER = [
  'When',
  'Member',
  'Entity',
  'Entity ID',
  'Kind',
  'Operation',
  'Field',
  'Before',
  'After',
] as const;

/** An entry's CSV records: one per changed field, or one with no field when none changed. */
export function toHistoryCsvRows(entry: HistoryEntryDto): string[][] {
  const common = [
    entry.changedAt,
    historyActorText(entry.actor),
    entry.entityName,
    entry.entityId,
    HISTORY_KINDS[entry.action],
    entry.operation,
  ];
  if (entry.changes.length === 0) return [[...common, '', '', '']];
  return entry.changes.map((change) => [
    ...common,
    change.field,
    historyValueText(change.before),
    historyValueText(change.after),
  ]);
}
