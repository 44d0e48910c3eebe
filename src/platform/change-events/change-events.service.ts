import { Injectable, Logger } from '@nestjs/common';
import { Database } from '../database/database.js';
import { DatabaseNotifications } from '../database/database-notifications.js';

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

/**
 * Announces that a group's data changed, to the change-feed sockets of every instance. A
 * notice is a PostgreSQL NOTIFY sent in the caller's unit of work: it is delivered when that
 * work commits and dropped when it rolls back, and the same notice sent twice in one
 * transaction is delivered once. Outside a unit of work it is sent at once.
 */
@Injectable()
export class ChangeEvents {
  private readonly logger = new Logger('ChangeEvents');

  constructor(
    private readonly db: Database,
    private readonly notifications: DatabaseNotifications,
  ) {}

  /**
   * Announces a change of the group's data: the one way Trove sends a change notice. In a unit of
   * work the notice goes with it (delivered at its commit, dropped if it rolls back); outside one,
   * after a change that is already committed, it is sent at once.
   */
  async publish(groupId: string, event: ChangeEvent): Promise<void> {
    const payload = encodeChangeNotice({ groupId, event });
    const send = this.db.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]);
    if (this.db.inTransaction) {
      await send;
      return;
    }
    // The change is already committed: a notice that cannot be sent must not fail the request.
    await send.catch((error: unknown) =>
      this.logger.warn(`change notice ${event} not sent: ${String(error)}`),
    );
  }

  /** Calls `listener` for every committed notice, from any instance. */
  subscribe(listener: (notice: ChangeNotice) => void): void {
    this.notifications.listen(CHANGES_CHANNEL, (payload) => {
      const notice = decodeChangeNotice(payload);
      if (notice) listener(notice);
    });
  }

  /** Resolves once this instance receives notices. */
  listening(): Promise<void> {
    return this.notifications.ready();
  }
}
