/**
 * What the change feed tells a group's sockets, as Homebox's web UI knows them: the kind of
 * data that changed, never what changed. `export.mutation` and `import.mutation` are for
 * exports and imports.
 */
export const CHANGE_EVENTS = [
  'entity.mutation',
  'tag.mutation',
  'user.mutation',
  'export.mutation',
  'import.mutation',
] as const;

export type ChangeEvent = (typeof CHANGE_EVENTS)[number];

export const isChangeEvent = (value: unknown): value is ChangeEvent =>
  (CHANGE_EVENTS as readonly unknown[]).includes(value);

/** The PostgreSQL channel every instance listens on. */
export const CHANGES_CHANNEL = 'trove_changes';

/** A notification on CHANGES_CHANNEL: which group changed, and how. */
export interface ChangeNotice {
  groupId: string;
  event: ChangeEvent;
}

export const encodeChangeNotice = (notice: ChangeNotice): string =>
  JSON.stringify({ groupId: notice.groupId, event: notice.event });

/** The notice in a payload, or undefined for anything else on the channel. */
export function decodeChangeNotice(payload: string): ChangeNotice | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { groupId, event } = parsed as { groupId?: unknown; event?: unknown };
  if (typeof groupId !== 'string' || !isChangeEvent(event)) return undefined;
  return { groupId, event };
}
