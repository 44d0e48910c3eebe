import { Injectable } from '@nestjs/common';
import { advisoryLock } from '../../platform/database/advisory-lock.js';
import { containsPattern } from '../../platform/database/contains-pattern.js';
import { Database } from '../../platform/database/database.js';
import { GroupMembershipRecord } from './group-membership.record.js';
import type { GroupRole } from '../auth/group-role.js';
import { GroupRecord } from './group.record.js';
import { GROUP_COUNT, GROUP_PAGE, MEMBERSHIP_COUNTS } from './group.sql.js';

/** A group as an instance administrator's list shows it. */
export interface GroupListing {
  id: string;
  name: string;
  createdAt: Date;
  /** How many members it has. */
  members: number;
}

/** The only code that reads or writes the `groups` and `group_memberships` tables. */
@Injectable()
export class GroupRepository {
  constructor(private readonly db: Database) {}

  findById(id: string): Promise<GroupRecord | null> {
    return this.db.repository(GroupRecord).findOneBy({ id });
  }

  /** The group OIDC sign-ins share under this key, if it exists yet. */
  findByOidcSharedKey(key: string): Promise<GroupRecord | null> {
    return this.db.repository(GroupRecord).findOneBy({ oidcSharedKey: key });
  }

  /** Until the unit of work ends, no one else creates the shared group of this key. */
  lockOidcSharedKey(key: string): Promise<void> {
    return advisoryLock(this.db, `oidc-shared-group:${key}`);
  }

  /** The groups the user belongs to, by name (then id). */
  findForUser(userId: string): Promise<GroupRecord[]> {
    return this.db
      .repository(GroupRecord)
      .createQueryBuilder('g')
      .innerJoin(GroupMembershipRecord, 'm', 'm.group_id = g.id AND m.user_id = :userId', {
        userId,
      })
      .orderBy('g.name', 'ASC')
      .addOrderBy('g.id', 'ASC')
      .getMany();
  }

  /** The user's memberships with their groups, by group name (then id). */
  findMembershipsOfUser(userId: string): Promise<GroupMembershipRecord[]> {
    return this.db.repository(GroupMembershipRecord).find({
      where: { userId },
      relations: { group: true },
      order: { group: { name: 'ASC', id: 'ASC' } },
    });
  }

  /**
   * A page of every group, by name: those whose name contains `search` when given; with how
   * many match in all.
   */
  async findPage(
    search: string | undefined,
    page: number,
    pageSize: number,
  ): Promise<{ items: GroupListing[]; total: number }> {
    const pattern = search === undefined ? null : containsPattern(search);
    const rows = await this.db.query<GroupListing & { total: number }>(GROUP_PAGE, [
      pattern,
      pageSize,
      (page - 1) * pageSize,
    ]);
    const total = rows.length > 0 ? rows[0].total : await this.db.count(GROUP_COUNT, [pattern]);
    return { items: rows.map(({ total: _total, ...group }) => group), total };
  }

  /** How many groups each of these users belongs to (0 for those of none). */
  async membershipCounts(userIds: string[]): Promise<Map<string, number>> {
    const rows = await this.db.query<{ userId: string; groups: number }>(MEMBERSHIP_COUNTS, [
      userIds,
    ]);
    const counts = new Map(userIds.map((id) => [id, 0]));
    for (const row of rows) counts.set(row.userId, row.groups);
    return counts;
  }

  insert(name: string): Promise<GroupRecord> {
    const repository = this.db.repository(GroupRecord);
    return repository.save(repository.create({ name }));
  }

  save(group: GroupRecord): Promise<GroupRecord> {
    return this.db.repository(GroupRecord).save(group);
  }

  async setOidcSharedKey(id: string, key: string): Promise<void> {
    await this.db.repository(GroupRecord).update({ id }, { oidcSharedKey: key });
  }

  /** Deletes the group and, through the foreign keys, everything in it. */
  async delete(id: string): Promise<void> {
    await this.db.repository(GroupRecord).delete({ id });
  }

  async insertMembership(groupId: string, userId: string, role: GroupRole): Promise<void> {
    await this.db.repository(GroupMembershipRecord).insert({ groupId, userId, role });
  }

  findMembership(groupId: string, userId: string): Promise<GroupMembershipRecord | null> {
    return this.db.repository(GroupMembershipRecord).findOneBy({ groupId, userId });
  }

  isMember(groupId: string, userId: string): Promise<boolean> {
    return this.db.repository(GroupMembershipRecord).exists({ where: { groupId, userId } });
  }

  /** The memberships of a group. */
  findMemberships(groupId: string): Promise<GroupMembershipRecord[]> {
    return this.db.repository(GroupMembershipRecord).find({ where: { groupId } });
  }

  /** The ids of the user's groups, the one joined first first. */
  async groupIdsOf(userId: string): Promise<string[]> {
    const memberships = await this.db
      .repository(GroupMembershipRecord)
      .find({ where: { userId }, order: { createdAt: 'ASC' } });
    return memberships.map((membership) => membership.groupId);
  }

  countMembers(groupId: string): Promise<number> {
    return this.db.repository(GroupMembershipRecord).count({ where: { groupId } });
  }

  countOwners(groupId: string): Promise<number> {
    return this.db.repository(GroupMembershipRecord).count({ where: { groupId, role: 'owner' } });
  }

  /** How many groups the user belongs to. */
  countMembershipsOf(userId: string): Promise<number> {
    return this.db.repository(GroupMembershipRecord).count({ where: { userId } });
  }

  /**
   * Locks the group's owner memberships until the unit of work ends, so that two demotions
   * cannot leave it without an owner; returns them.
   */
  lockOwners(groupId: string): Promise<GroupMembershipRecord[]> {
    if (!this.db.inTransaction) throw new Error('locking owners needs a unit of work');
    return this.db
      .repository(GroupMembershipRecord)
      .createQueryBuilder('m')
      .setLock('pessimistic_write')
      .where('m.group_id = :groupId AND m.role = :owner', { groupId, owner: 'owner' })
      .getMany();
  }

  saveMembership(membership: GroupMembershipRecord): Promise<GroupMembershipRecord> {
    return this.db.repository(GroupMembershipRecord).save(membership);
  }

  async setRole(groupId: string, userId: string, role: GroupRole): Promise<void> {
    await this.db.repository(GroupMembershipRecord).update({ groupId, userId }, { role });
  }

  async deleteMembership(id: string): Promise<void> {
    await this.db.repository(GroupMembershipRecord).delete({ id });
  }
}
