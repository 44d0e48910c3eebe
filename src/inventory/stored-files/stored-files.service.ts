import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { GroupLifecycle } from '../../identity/groups/group-lifecycle.js';
import { StoredFileRepository } from './stored-file.repository.js';
import { assertStorageKey, Storage, type StorageBody } from '../../platform/storage/storage.js';

/** Files deleted at once when many are released (a group's, say). */
const RELEASE_CONCURRENCY = 8;

/** A key Trove generated, as opposed to the URL a link attachment keeps in the same column. */
export function isStorageKey(value: string): boolean {
  try {
    assertStorageKey(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The files of attachment rows, shared by key: identical uploads in a group get the same key
 * (content-addressed), so a file is stored once and deleted only when no row uses it any more.
 * Storing and deleting a key take the same PostgreSQL advisory lock, so an upload that reuses a
 * file cannot lose it to a delete running at the same time, on this instance or another.
 */
@Injectable()
export class StoredFilesService implements OnModuleInit {
  private readonly logger = new Logger('StoredFiles');

  constructor(
    private readonly files: StoredFileRepository,
    private readonly storage: Storage,
    private readonly groups: GroupLifecycle,
  ) {}

  /** A deleted group's attachments are gone with it (cascade); their files are released after. */
  onModuleInit(): void {
    this.groups.register('stored-files', {
      files: {
        keysOf: (groupId) => this.keysOfGroup(groupId),
        release: (keys) => this.releaseUnused(keys),
      },
    });
  }

  /**
   * Inside the caller's unit of work, before it inserts the row that uses the key: locks the key
   * until commit and stores the file unless it is there already.
   */
  async storeOnce(key: string, open: () => StorageBody, contentType: string): Promise<void> {
    await this.files.lock(key);
    if (!(await this.storage.exists(key))) await this.storage.put(key, open(), contentType);
  }

  /** Runs `work` in the current unit of work, or in a new one. */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.files.transaction(work);
  }

  /** Keys of the files of these entities' attachments, each once. */
  async keysOfEntities(entityIds: string[]): Promise<string[]> {
    if (entityIds.length === 0) return [];
    return (await this.files.pathsOfEntities(entityIds)).filter(isStorageKey);
  }

  /** Keys of the files of every attachment of a group's entities. */
  async keysOfGroup(groupId: string): Promise<string[]> {
    return (await this.files.pathsOfGroup(groupId)).filter(isStorageKey);
  }

  /**
   * After the rows that used them are gone: deletes each file that no attachment row uses any
   * more, once the unit of work open in the context has committed (at once outside one; never
   * when it rolls back, which keeps the rows). Never throws; failures are logged, and the file
   * stays.
   */
  async releaseUnused(keys: Iterable<string>): Promise<void> {
    const pending = [...new Set(keys)].filter(isStorageKey);
    if (pending.length > 0) await this.files.afterCommit(() => this.release(pending));
  }

  /** Deletes each of these files that no attachment row uses. */
  private async release(pending: string[]): Promise<void> {
    const worker = async (): Promise<void> => {
      for (let key = pending.shift(); key !== undefined; key = pending.shift()) {
        try {
          await this.releaseOne(key);
        } catch (error) {
          this.logger.warn(
            `could not delete stored file ${key}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: RELEASE_CONCURRENCY }, worker));
  }

  private async releaseOne(key: string): Promise<void> {
    await this.files.transaction(async () => {
      await this.files.lock(key);
      if (!(await this.files.isUsed(key))) await this.storage.delete(key);
    });
  }
}
