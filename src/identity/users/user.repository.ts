import { Injectable } from '@nestjs/common';
import { advisoryLock } from '../../platform/database/advisory-lock.js';
import { containsPattern } from '../../platform/database/contains-pattern.js';
import { Database } from '../../platform/database/database.js';
import { UserRecord } from './user.record.js';
import {
  KEEP_DEFAULT_GROUP_AMONG,
  SET_DISABLED,
  SUMMARIES,
  UPDATE_SETTINGS,
  USER_COUNT,
  USER_PAGE,
} from './user.sql.js';

export type UserValues = Pick<
  UserRecord,
  | 'name'
  | 'email'
  | 'passwordHash'
  | 'isSuperuser'
  | 'activatedOn'
  | 'defaultGroupId'
  | 'oidcIssuer'
  | 'oidcSubject'
  | 'settings'
>;

/** A user as others see them: in a group's member list, say. */
export interface UserSummary {
  id: string;
  name: string;
  email: string;
  /** The account is disabled: it cannot sign in and its credentials are refused. */
  disabled: boolean;
}

/** A user as an instance administrator's list shows them. */
export interface UserListing extends UserSummary {
  isSuperuser: boolean;
  createdAt: Date;
}

/** The only code that reads or writes the `users` table. */
@Injectable()
export class UserRepository {
  constructor(private readonly db: Database) {}

  findById(id: string): Promise<UserRecord | null> {
    return this.db.repository(UserRecord).findOneBy({ id });
  }

  /** The user of a normalised e-mail address. */
  findByEmail(email: string): Promise<UserRecord | null> {
    return this.db.repository(UserRecord).findOneBy({ email });
  }

  existsByEmail(email: string): Promise<boolean> {
    return this.db.repository(UserRecord).existsBy({ email });
  }

  findByOidcIdentity(issuer: string, subject: string): Promise<UserRecord | null> {
    return this.db.repository(UserRecord).findOneBy({ oidcIssuer: issuer, oidcSubject: subject });
  }

  /** The users with these ids, by name (then id). */
  summaries(ids: string[]): Promise<UserSummary[]> {
    return this.db.query<UserSummary>(SUMMARIES, [ids]);
  }

  /**
   * A page of every user (of every group), by name: those whose name or e-mail address contains
   * `search` when given; with how many match in all.
   */
  async findPage(
    search: string | undefined,
    page: number,
    pageSize: number,
  ): Promise<{ items: UserListing[]; total: number }> {
    const pattern = search === undefined ? null : containsPattern(search);
    const rows = await this.db.query<UserListing & { total: number }>(USER_PAGE, [
      pattern,
      pageSize,
      (page - 1) * pageSize,
    ]);
    const total = rows.length > 0 ? rows[0].total : await this.db.count(USER_COUNT, [pattern]);
    return { items: rows.map(({ total: _total, ...user }) => user), total };
  }

  insert(values: UserValues): Promise<UserRecord> {
    const repository = this.db.repository(UserRecord);
    return repository.save(repository.create(values));
  }

  save(user: UserRecord): Promise<UserRecord> {
    return this.db.repository(UserRecord).save(user);
  }

  async delete(id: string): Promise<void> {
    await this.db.repository(UserRecord).delete({ id });
  }

  async setSuperuser(id: string, isSuperuser: boolean): Promise<void> {
    await this.db.repository(UserRecord).update({ id }, { isSuperuser });
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<void> {
    await this.db.repository(UserRecord).update({ id }, { passwordHash });
  }

  /** Disables (or enables) the user; false when it already was. */
  async setDisabled(id: string, disabled: boolean): Promise<boolean> {
    return (await this.db.execute(SET_DISABLED, [id, disabled])) > 0;
  }

  async setSettings(id: string, settings: Record<string, unknown>): Promise<void> {
    await this.db.query(UPDATE_SETTINGS, [id, JSON.stringify(settings)]);
  }

  async setOidcIdentity(id: string, issuer: string, subject: string): Promise<void> {
    await this.db
      .repository(UserRecord)
      .update({ id }, { oidcIssuer: issuer, oidcSubject: subject });
  }

  async setDefaultGroup(id: string, groupId: string): Promise<void> {
    await this.db.repository(UserRecord).update({ id }, { defaultGroupId: groupId });
  }

  async setDefaultGroupIfNone(id: string, groupId: string): Promise<void> {
    await this.db
      .repository(UserRecord)
      .createQueryBuilder()
      .update()
      .set({ defaultGroupId: groupId })
      .where('id = :id AND default_group_id IS NULL', { id })
      .execute();
  }

  /** Points the default group at the first of `groupIds` unless it is one of them. */
  async keepDefaultGroupAmong(id: string, groupIds: string[]): Promise<void> {
    await this.db.query(KEEP_DEFAULT_GROUP_AMONG, [id, groupIds[0] ?? null, groupIds]);
  }

  /** Until the unit of work ends, no one else takes the lock of this name (user creation). */
  lock(name: string): Promise<void> {
    return advisoryLock(this.db, name);
  }
}
