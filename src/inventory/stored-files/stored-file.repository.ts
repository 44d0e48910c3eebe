import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { LOCK_KEY, PATH_USED, PATHS_OF_ENTITIES, PATHS_OF_GROUP } from './stored-file.sql.js';

/**
 * What the database knows of stored files: the attachment rows that use a key (their `path`)
 * and the per-key lock.
 */
@Injectable()
export class StoredFileRepository {
  constructor(private readonly db: Database) {}

  /** Locks the key until the current unit of work ends. */
  async lock(key: string): Promise<void> {
    if (!this.db.inTransaction) throw new Error('locking a stored file needs a unit of work');
    await this.db.query(LOCK_KEY, [key]);
  }

  async pathsOfEntities(entityIds: string[]): Promise<string[]> {
    const rows = await this.db.query<{ path: string }>(PATHS_OF_ENTITIES, [entityIds]);
    return rows.map((row) => row.path);
  }

  async pathsOfGroup(groupId: string): Promise<string[]> {
    const rows = await this.db.query<{ path: string }>(PATHS_OF_GROUP, [groupId]);
    return rows.map((row) => row.path);
  }

  async isUsed(key: string): Promise<boolean> {
    return (await this.db.query(PATH_USED, [key])).length > 0;
  }

  /** Runs `work` in the current unit of work, or in a new one. */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Runs `work` once the open unit of work has committed (at once outside one). */
  afterCommit(work: () => Promise<void>): Promise<void> {
    return this.db.afterCommit(work);
  }
}
