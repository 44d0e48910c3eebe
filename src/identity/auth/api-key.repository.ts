import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { ApiKeyRecord } from './api-key.record.js';

export type ApiKeyValues = Pick<ApiKeyRecord, 'userId' | 'name' | 'keyHash' | 'expiresAt'>;

/** The only code that reads or writes the `api_keys` table (besides the identity lookup). */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly db: Database) {}

  /** The user's keys, newest first. */
  findByUser(userId: string): Promise<ApiKeyRecord[]> {
    return this.db.repository(ApiKeyRecord).find({
      where: { userId },
      order: { createdAt: 'DESC', id: 'ASC' },
    });
  }

  insert(values: ApiKeyValues): Promise<ApiKeyRecord> {
    const keys = this.db.repository(ApiKeyRecord);
    return keys.save(keys.create({ ...values, lastUsedAt: null }));
  }

  /** Deletes the user's key; false when the user has no such key. */
  async deleteOwn(userId: string, id: string): Promise<boolean> {
    const result = await this.db.repository(ApiKeyRecord).delete({ id, userId });
    return Boolean(result.affected);
  }

  /** Deletes every key of the user. */
  async deleteAllOfUser(userId: string): Promise<void> {
    await this.db.repository(ApiKeyRecord).delete({ userId });
  }

  /** Marks the key used now, unless it was marked after `since`. */
  async touch(id: string, since: Date): Promise<void> {
    await this.db
      .repository(ApiKeyRecord)
      .createQueryBuilder()
      .update()
      .set({ lastUsedAt: () => 'now()' })
      .where('id = :id', { id })
      .andWhere('(last_used_at IS NULL OR last_used_at < :since)', { since })
      .execute();
  }
}
