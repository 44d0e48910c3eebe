import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { nameOrder } from '../../platform/database/name-order.js';
import { OwnedLookup, type FindOwnedOptions } from '../../platform/database/owned.js';
import { NotifierRecord } from './notifier.record.js';

export type NotifierValues = Pick<
  NotifierRecord,
  'id' | 'groupId' | 'userId' | 'name' | 'isActive' | 'urlEncrypted'
>;

/** The only code that reads or writes the `notifiers` table. */
@Injectable()
export class NotifierRepository {
  private readonly owned: OwnedLookup<NotifierRecord>;

  constructor(private readonly db: Database) {
    this.owned = new OwnedLookup(db, NotifierRecord, 'notifier');
  }

  /** The ids of the group's active notifiers (anyone's). */
  async findActiveIds(groupId: string): Promise<string[]> {
    const rows = await this.db
      .repository(NotifierRecord)
      .createQueryBuilder('n')
      .select('n.id', 'id')
      .where('n.group_id = :groupId AND n.is_active', { groupId })
      .orderBy('n.id')
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  /** The user's notifiers in the group, by name. */
  findOwn(groupId: string, userId: string): Promise<NotifierRecord[]> {
    return this.db
      .repository(NotifierRecord)
      .createQueryBuilder('n')
      .where('n.group_id = :groupId AND n.user_id = :userId', { groupId, userId })
      .orderBy(nameOrder('n'))
      .getMany();
  }

  /**
   * The group's notifier `id` (the caller's only, with `userId`), or 404 `notifier <id> not
   * found`: the owned lookup with a user scope.
   */
  findOwned(groupId: string, id: string, options: FindOwnedOptions): Promise<NotifierRecord> {
    return this.owned.find(groupId, id, options);
  }

  findById(id: string): Promise<NotifierRecord | null> {
    return this.db.repository(NotifierRecord).findOneBy({ id });
  }

  insert(values: NotifierValues): Promise<NotifierRecord> {
    const repository = this.db.repository(NotifierRecord);
    return repository.save(repository.create(values));
  }

  save(record: NotifierRecord): Promise<NotifierRecord> {
    return this.db.repository(NotifierRecord).save(record);
  }

  /** Deletes the user's notifier in the group, if there is one. */
  async deleteOwn(groupId: string, userId: string, id: string): Promise<void> {
    await this.db.repository(NotifierRecord).delete({ id, groupId, userId });
  }

  /** Records a successful delivery (the error fields are kept, as history). */
  async recordSuccess(id: string, at: Date): Promise<void> {
    await this.db.query('UPDATE notifiers SET last_success_at = $2 WHERE id = $1', [id, at]);
  }

  async recordFailure(id: string, at: Date, error: string): Promise<void> {
    await this.db.query('UPDATE notifiers SET last_error = $2, last_error_at = $3 WHERE id = $1', [
      id,
      error,
      at,
    ]);
  }

  /** Rows whose URL is still stored in clear (written before URLs were encrypted). */
  findPlaintext(): Promise<Pick<NotifierRecord, 'id' | 'urlPlaintext'>[]> {
    return this.db
      .repository(NotifierRecord)
      .createQueryBuilder('n')
      .select(['n.id', 'n.urlPlaintext'])
      .where('n.url_plaintext IS NOT NULL')
      .getMany();
  }

  /** Replaces a clear URL by its encryption, unless another instance did so already. */
  async replacePlaintext(id: string, urlEncrypted: string): Promise<void> {
    await this.db.query(
      'UPDATE notifiers SET url_encrypted = $2, url_plaintext = NULL WHERE id = $1 AND url_plaintext IS NOT NULL',
      [id, urlEncrypted],
    );
  }

  countOfGroup(groupId: string): Promise<number> {
    return this.db.repository(NotifierRecord).count({ where: { groupId } });
  }
}
