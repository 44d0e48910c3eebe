import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
  forwardRef,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthIdentity, AuthUser } from '../auth/auth-user.js';
import { VerifiedCredentials } from '../auth/verified-credentials.js';
import { ValidationFailedException } from '../database/validation-failed.exception.js';
import { CurrenciesService } from '../currencies/currencies.service.js';
import { StoredFilesService } from '../attachments/stored-files.service.js';
import { UsersService } from '../users/users.service.js';
import type { CreateGroupDto, GroupDto, UpdateGroupDto } from './dto/group.dto.js';
import type { GroupMemberDto } from './dto/group-member.dto.js';
import type { GroupMembershipRecord } from './group-membership.record.js';
import type { GroupRole } from '../auth/group-role.js';
import type { GroupRecord } from './group.record.js';
import { toGroupDto } from './group.mapper.js';
import { GroupRepository } from './group.repository.js';
import { GroupSeeder } from './group-seed.js';
import { ChangeEvents } from '../events/change-events.service.js';

/**
 * The key that finds the group single sign-on (and SCIM provisioning) shares under the name
 * `name` (TROVE_OIDC_SHARED_GROUP): derived from the setting, never the group's own name.
 */
export const oidcSharedGroupKey = (name: string): string =>
  createHash('sha256').update(name).digest('hex').slice(0, 40);

/** Characters a group name may have (the column is varchar(255)). */
export const GROUP_NAME_MAX_LENGTH = 255;

/**
 * Groups and their members. Membership is where a user's role lives; the user's default group
 * always points at one of their groups (or nowhere when they have none).
 */
/**
 * Files a module keeps outside the database for a group (a backup's zip), which must not outlive
 * the group: their keys are read in the deletion's unit of work, before the group's rows go, and
 * released once it has committed.
 */
export interface GroupFiles {
  keysOf(groupId: string): Promise<string[]>;
  /** Never throws: a file that cannot be deleted is logged and stays. */
  release(keys: string[]): Promise<void>;
}

/** One of a user's groups with the user's role in it. */
export interface GroupWithRole extends GroupDto {
  role: GroupRole;
}

@Injectable()
export class GroupsService {
  constructor(
    private readonly groups: GroupRepository,
    private readonly seeder: GroupSeeder,
    // The users module builds on this one (a new user's group), so it is resolved late.
    @Inject(forwardRef(() => UsersService)) private readonly users: Readonly<UsersService>,
    private readonly currencies: CurrenciesService,
    private readonly storedFiles: StoredFilesService,
    private readonly changes: ChangeEvents,
    private readonly verified: VerifiedCredentials,
  ) {}

  /** Modules whose files outside the database go with a deleted group (see `GroupFiles`). */
  private readonly groupFiles: GroupFiles[] = [];

  /** Called by a module at start-up: its files of a group are released when the group is deleted. */
  keepFilesOf(files: GroupFiles): void {
    this.groupFiles.push(files);
  }

  /** The row of a group, for another module's stored views (read in the unit of work). */
  async findStored(groupId: string): Promise<GroupRecord> {
    return this.findGroupOrFail(groupId);
  }

  /**
   * Creates a group owned by `ownerId`, seeded, in the caller's unit of work (or its own). A
   * name longer than a group name may be (such as "<255-character user name>'s Home") is cut
   * to fit.
   */
  @Transactional()
  async createOwnedGroup(
    ownerId: string,
    name: string,
    options: { starter: boolean },
  ): Promise<GroupDto> {
    const fitted = [...name].slice(0, GROUP_NAME_MAX_LENGTH).join('');
    const group = await this.groups.insert(fitted);
    await this.groups.insertMembership(group.id, ownerId, 'owner');
    await this.seeder.seed(group.id, options);
    return toGroupDto(group);
  }

  /** Adds a member and makes the group their default if they have none. */
  @Transactional()
  async addMember(groupId: string, userId: string, role: GroupRole): Promise<void> {
    await this.groups.insertMembership(groupId, userId, role);
    await this.users.setDefaultGroupIfNone(userId, groupId);
    await this.changes.publish(groupId, 'user.mutation');
  }

  async isMember(groupId: string, userId: string): Promise<boolean> {
    return this.groups.isMember(groupId, userId);
  }

  /** The ids of the group's members. */
  async memberIdsOf(groupId: string): Promise<string[]> {
    return (await this.groups.findMemberships(groupId)).map((membership) => membership.userId);
  }

  /** The ids of the user's groups, the one joined first first. */
  async groupIdsOf(userId: string): Promise<string[]> {
    return this.groups.groupIdsOf(userId);
  }

  /** A group by id (one the caller knows exists, such as an invitation's). */
  async getById(groupId: string): Promise<GroupDto> {
    return toGroupDto(await this.findGroupOrFail(groupId));
  }

  async get(user: AuthUser): Promise<GroupDto> {
    return toGroupDto(await this.findGroupOrFail(user.groupId));
  }

  async listForUser(caller: AuthIdentity): Promise<GroupDto[]> {
    return (await this.groups.findForUser(caller.id)).map(toGroupDto);
  }

  /** The user's groups, by name, with their role in each. */
  async rolesOf(userId: string): Promise<GroupWithRole[]> {
    const memberships = await this.groups.findMembershipsOfUser(userId);
    return memberships.flatMap(({ group, role }) =>
      group ? [{ ...toGroupDto(group), role }] : [],
    );
  }

  @Transactional()
  async create(caller: AuthIdentity, dto: CreateGroupDto): Promise<GroupDto> {
    const group = await this.createOwnedGroup(caller.id, dto.name, { starter: false });
    await this.users.setDefaultGroupIfNone(caller.id, group.id);
    return group;
  }

  async update(user: AuthUser, dto: UpdateGroupDto): Promise<GroupDto> {
    const group = await this.findGroupOrFail(user.groupId);
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
    const saved = await this.groups.save(group);
    await this.changes.publish(user.groupId, 'user.mutation');
    return toGroupDto(saved);
  }

  /**
   * Deletes the group and everything in it, then the stored files of its attachments and the
   * other files modules keep for it (`keepFilesOf`); refused when it is the caller's only group.
   */
  async remove(user: AuthUser): Promise<void> {
    const { attachments, kept } = await this.deleteGroup(user);
    await this.changes.publish(user.groupId, 'user.mutation');
    await this.storedFiles.releaseUnused(attachments);
    for (const { files, keys } of kept) await files.release(keys);
  }

  /** Members of the group with their roles, by name (then id). */
  async listMembers(user: AuthUser): Promise<GroupMemberDto[]> {
    const memberships = await this.groups.findMemberships(user.groupId);
    return this.toMembers(memberships);
  }

  @Transactional()
  async removeMember(user: AuthUser, memberId: string): Promise<void> {
    if (memberId === user.id) {
      throw new BadRequestException('you cannot remove yourself from the group');
    }
    const membership = await this.findMembershipOrFail(user.groupId, memberId);
    const members = await this.groups.countMembers(user.groupId);
    if (members <= 1) throw new BadRequestException('cannot remove the last member of a group');
    await this.groups.deleteMembership(membership.id);
    this.verified.forgetUser(memberId);
    await this.repairDefaultGroup(memberId);
    await this.changes.publish(user.groupId, 'user.mutation');
  }

  @Transactional()
  async setMemberRole(user: AuthUser, memberId: string, role: GroupRole): Promise<GroupMemberDto> {
    // Lock the group's owner rows so two demotions cannot leave it without an owner.
    const owners = await this.groups.lockOwners(user.groupId);
    const membership = await this.findMembershipOrFail(user.groupId, memberId);
    if (membership.role === 'owner' && role !== 'owner' && owners.length <= 1) {
      throw new ConflictException('a group needs at least one owner; promote another member first');
    }
    membership.role = role;
    await this.groups.saveMembership(membership);
    this.verified.forgetUser(memberId);
    await this.changes.publish(user.groupId, 'user.mutation');
    const [member] = await this.toMembers([membership]);
    return member;
  }

  /**
   * Applies a role the caller did not choose in the app (an OIDC group mapping): the group's
   * last owner keeps being its owner.
   */
  @Transactional()
  async applyRole(groupId: string, userId: string, role: GroupRole): Promise<void> {
    if (role !== 'owner') {
      const current = await this.groups.findMembership(groupId, userId);
      const owners = await this.groups.countOwners(groupId);
      if (current?.role === 'owner' && owners <= 1) return;
    }
    await this.groups.setRole(groupId, userId, role);
    await this.changes.publish(groupId, 'user.mutation');
  }

  /**
   * The group OIDC sign-ins share under `key`, created with `userId` as its owner on first use;
   * `created` tells which. An advisory lock keeps two first sign-ins from creating two.
   */
  @Transactional()
  async findOrCreateOidcShared(
    key: string,
    name: string,
    userId: string,
  ): Promise<{ id: string; created: boolean }> {
    await this.groups.lockOidcSharedKey(key);
    const found = await this.groups.findByOidcSharedKey(key);
    if (found) return { id: found.id, created: false };
    const group = await this.createOwnedGroup(userId, name, { starter: false });
    await this.groups.setOidcSharedKey(group.id, key);
    return { id: group.id, created: true };
  }

  /** The id of the group shared under `key` (see `oidcSharedGroupKey`), if it exists yet. */
  async findOidcShared(key: string): Promise<string | undefined> {
    return (await this.groups.findByOidcSharedKey(key))?.id;
  }

  /** Points the user's default group at one of their groups if it no longer is one. */
  @Transactional()
  async repairDefaultGroup(userId: string): Promise<void> {
    await this.users.keepDefaultGroupAmong(userId, await this.groups.groupIdsOf(userId));
  }

  /**
   * Deletes the caller's group (not their only one); returns the keys of its stored files, to
   * delete once this commits.
   */
  @Transactional()
  private async deleteGroup(
    user: AuthUser,
  ): Promise<{ attachments: string[]; kept: { files: GroupFiles; keys: string[] }[] }> {
    const memberships = await this.groups.countMembershipsOf(user.id);
    if (memberships <= 1) {
      throw new BadRequestException('cannot delete your only group; create or join another first');
    }
    const members = await this.groups.findMemberships(user.groupId);
    const attachments = await this.storedFiles.keysOfGroup(user.groupId);
    const kept: { files: GroupFiles; keys: string[] }[] = [];
    for (const files of this.groupFiles)
      kept.push({ files, keys: await files.keysOf(user.groupId) });
    await this.groups.delete(user.groupId);
    for (const member of members) await this.repairDefaultGroup(member.userId);
    return { attachments, kept };
  }

  /** The members of these memberships, by name (then id). */
  private async toMembers(memberships: GroupMembershipRecord[]): Promise<GroupMemberDto[]> {
    const roles = new Map(memberships.map((membership) => [membership.userId, membership.role]));
    const users = await this.users.summariesOf([...roles.keys()]);
    return users.map((user) => ({ ...user, role: roles.get(user.id)! }));
  }

  private async findGroupOrFail(groupId: string): Promise<GroupRecord> {
    const group = await this.groups.findById(groupId);
    if (!group) throw new NotFoundException(`group ${groupId} not found`);
    return group;
  }

  private async findMembershipOrFail(
    groupId: string,
    userId: string,
  ): Promise<GroupMembershipRecord> {
    const membership = await this.groups.findMembership(groupId, userId);
    if (!membership) throw new NotFoundException(`user ${userId} is not a member of this group`);
    return membership;
  }
}
