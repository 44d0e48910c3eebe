import { advisoryLock } from '../../../platform/database/advisory-lock.js';
import type { Database } from '../../../platform/database/database.js';
import { tagTreeLock } from '../../tags/tag-tree-lock.js';

/**
 * Keeps the group's tag tree as it is until the unit of work ends: takes the group's "tag tree"
 * lock shared (TagRepository.lockGroup takes it exclusive). Taken before links are removed,
 * whether directly or with their entities: the database's upkeep of the kept tag matches takes
 * it then anyway, and taking it first means a tag deleted meanwhile never waits on a link this
 * unit of work holds while this one waits on the deletion.
 */
export function keepTagTree(db: Database, groupId: string): Promise<void> {
  return advisoryLock(db, tagTreeLock(groupId), 'shared');
}

/** Runs a statement that answers one row with a `count`. */
export async function countFrom(db: Database, sql: string, params: unknown[]): Promise<number> {
  const [row] = await db.query<{ count: number }>(sql, params);
  return row.count;
}
