import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { AuthIdentity, AuthUser } from '../auth/auth-user.js';
import { ValidationFailedException } from '../common/errors/validation-failed.exception.js';
import { CurrenciesService } from '../currencies/currencies.service.js';
import { Database } from '../database/database.js';
import { StoredFilesService } from '../storage/stored-files.service.js';
import { UserRecord } from '../users/user.record.js';
import type { CreateGroupDto, GroupDto, UpdateGroupDto } from './dto/group.dto.js';
import type { GroupMemberDto } from './dto/group-member.dto.js';
import { GroupMembershipRecord } from './group-membership.record.js';
import type { GroupRole } from './group-role.js';
import { GroupRecord } from './group.record.js';
import { toGroupDto } from './group.mapper.js';
import { seedGroup } from './group-seed.js';

/** Characters a group name may have (the column is varchar(255)). */
export const GROUP_NAME_MAX_LENGTH = 255;

/**
 * Groups and their members. Membership is where a user's role lives; the user's default group
 * always points at one of their groups (or nowhere when they have none).
 */
@Injectable()
export class GroupsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly currencies: CurrenciesService,
    private readonly storedFiles: StoredFilesService,
    private readonly db: Database,
  ) {}

  /** The row of a group, for another module's stored views (read in the unit of work). */
  async findStored(groupId: string): Promise<GroupRecord> {
    return this.findGroupOrFail(this.db.manager, groupId);
  }

  /**
   * Creates a group owned by `ownerId`, seeded, inside the caller's transaction. A name longer
   * than a group name may be (such as "<255-character user name>'s Home") is cut to fit.
   */
  async createOwnedGroup(
    manager: EntityManager,
    ownerId: string,
    name: string,
    options: { starter: boolean },
  ): Promise<GroupRecord> {
    const fitted = [...name].slice(0, GROUP_NAME_MAX_LENGTH).join('');
    const group = await manager.save(GroupRecord, manager.create(GroupRecord, { name: fitted }));
    await manager.insert(GroupMembershipRecord, {
      groupId: group.id,
      userId: ownerId,
      role: 'owner',
    });
    await seedGroup(manager, group.id, options);
    return group;
  }

  /** Adds a member (inside the caller's transaction) and makes the group their default if they have none. */
  async addMember(
    manager: EntityManager,
    groupId: string,
    userId: string,
    role: GroupRole,
  ): Promise<void> {
    await manager.insert(GroupMembershipRecord, { groupId, userId, role });
    await manager
      .createQueryBuilder()
      .update(UserRecord)
      .set({ defaultGroupId: groupId })
      .where('id = :userId AND default_group_id IS NULL', { userId })
      .execute();
  }

  async isMember(manager: EntityManager, groupId: string, userId: string): Promise<boolean> {
    return manager.exists(GroupMembershipRecord, { where: { groupId, userId } });
  }

  async get(user: AuthUser): Promise<GroupDto> {
    return toGroupDto(await this.findGroupOrFail(this.dataSource.manager, user.groupId));
  }

  async listForUser(caller: AuthIdentity): Promise<GroupDto[]> {
    const groups = await this.dataSource
      .getRepository(GroupRecord)
      .createQueryBuilder('g')
      .innerJoin(GroupMembershipRecord, 'm', 'm.group_id = g.id AND m.user_id = :userId', {
        userId: caller.id,
      })
      .orderBy('g.name', 'ASC')
      .addOrderBy('g.id', 'ASC')
      .getMany();
    return groups.map(toGroupDto);
  }

  async create(caller: AuthIdentity, dto: CreateGroupDto): Promise<GroupDto> {
    return this.dataSource.transaction(async (manager) => {
      const group = await this.createOwnedGroup(manager, caller.id, dto.name, { starter: false });
      await manager
        .createQueryBuilder()
        .update(UserRecord)
        .set({ defaultGroupId: group.id })
        .where('id = :id AND default_group_id IS NULL', { id: caller.id })
        .execute();
      return toGroupDto(group);
    });
  }

  async update(user: AuthUser, dto: UpdateGroupDto): Promise<GroupDto> {
    const repository = this.dataSource.getRepository(GroupRecord);
    const group = await this.findGroupOrFail(this.dataSource.manager, user.groupId);
    if (dto.currency !== undefined) {
      const currency = this.currencies.normalise(dto.currency);
      if (!currency) {
        throw ValidationFailedException.forField(
          'currency',
          `currency '${dto.currency}' is not supported`,
        );
      }
      group.currency = currency;
    }
    if (dto.name !== undefined) group.name = dto.name;
    return toGroupDto(await repository.save(group));
  }

  /**
   * Deletes the group and everything in it, then the stored files of its attachments; refused
   * when it is the caller's only group.
   */
  async remove(user: AuthUser): Promise<void> {
    const keys = await this.dataSource.transaction(async (manager) => {
      const memberships = await manager.count(GroupMembershipRecord, {
        where: { userId: user.id },
      });
      if (memberships <= 1) {
        throw new BadRequestException(
          'cannot delete your only group; create or join another first',
        );
      }
      const members = await manager.find(GroupMembershipRecord, {
        where: { groupId: user.groupId },
      });
      const stored = await this.storedFiles.keysOfGroup(manager, user.groupId);
      await manager.delete(GroupRecord, { id: user.groupId });
      for (const member of members) await this.repairDefaultGroup(manager, member.userId);
      return stored;
    });
    await this.storedFiles.releaseUnused(keys);
  }

  async listMembers(user: AuthUser): Promise<GroupMemberDto[]> {
    const rows: GroupMemberDto[] = await this.dataSource.query(
      `SELECT u.id, u.name, u.email, m.role FROM group_memberships m
       JOIN users u ON u.id = m.user_id
       WHERE m.group_id = $1 ORDER BY u.name, u.id`,
      [user.groupId],
    );
    return rows;
  }

  async removeMember(user: AuthUser, memberId: string): Promise<void> {
    if (memberId === user.id) {
      throw new BadRequestException('you cannot remove yourself from the group');
    }
    await this.dataSource.transaction(async (manager) => {
      const membership = await this.findMembershipOrFail(manager, user.groupId, memberId);
      const members = await manager.count(GroupMembershipRecord, {
        where: { groupId: user.groupId },
      });
      if (members <= 1) throw new BadRequestException('cannot remove the last member of a group');
      await manager.delete(GroupMembershipRecord, { id: membership.id });
      await this.repairDefaultGroup(manager, memberId);
    });
  }

  async setMemberRole(user: AuthUser, memberId: string, role: GroupRole): Promise<GroupMemberDto> {
    return this.dataSource.transaction(async (manager) => {
      // Lock the group's owner rows so two demotions cannot leave it without an owner.
      const owners = await manager
        .getRepository(GroupMembershipRecord)
        .createQueryBuilder('m')
        .setLock('pessimistic_write')
        .where('m.group_id = :groupId AND m.role = :owner', {
          groupId: user.groupId,
          owner: 'owner',
        })
        .getMany();
      const membership = await this.findMembershipOrFail(manager, user.groupId, memberId);
      if (membership.role === 'owner' && role !== 'owner' && owners.length <= 1) {
        throw new ConflictException(
          'a group needs at least one owner; promote another member first',
        );
      }
      membership.role = role;
      await manager.save(membership);
      const [member] = await manager.query<GroupMemberDto[]>(
        `SELECT u.id, u.name, u.email, m.role FROM group_memberships m
         JOIN users u ON u.id = m.user_id WHERE m.id = $1`,
        [membership.id],
      );
      return member;
    });
  }

  /** Points the user's default group at one of their groups if it no longer is one. */
  async repairDefaultGroup(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(
      `UPDATE users u SET default_group_id = (
         SELECT m.group_id FROM group_memberships m WHERE m.user_id = u.id ORDER BY m.created_at LIMIT 1)
       WHERE u.id = $1 AND (u.default_group_id IS NULL OR NOT EXISTS (
         SELECT 1 FROM group_memberships m WHERE m.user_id = u.id AND m.group_id = u.default_group_id))`,
      [userId],
    );
  }

  private async findGroupOrFail(manager: EntityManager, groupId: string): Promise<GroupRecord> {
    const group = await manager.findOneBy(GroupRecord, { id: groupId });
    if (!group) throw new NotFoundException(`group ${groupId} not found`);
    return group;
  }

  private async findMembershipOrFail(
    manager: EntityManager,
    groupId: string,
    userId: string,
  ): Promise<GroupMembershipRecord> {
    const membership = await manager.findOneBy(GroupMembershipRecord, { groupId, userId });
    if (!membership) throw new NotFoundException(`user ${userId} is not a member of this group`);
    return membership;
  }
}
