import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthIdentity, AuthUser } from '../auth/auth-user.js';
import { VerifiedCredentials } from '../auth/verified-credentials.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import { CurrenciesService } from '../currencies/currencies.service.js';
import type { GroupDto, UpdateGroupDto } from './dto/group.dto.js';
import type { GroupMembershipRecord } from './group-membership.record.js';
import type { GroupRole } from '../auth/group-role.js';
import type { GroupRecord } from './group.record.js';
import { toGroupDto } from './group.mapper.js';
import { GroupRepository, type GroupListing } from './group.repository.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';
import { GroupLifecycle, type GroupSeedOptions, type KeptGroupFiles } from './group-lifecycle.js';

/**
 * The key that finds the group single sign-on (and SCIM provisioning) shares under the name
 * `name` (TROVE_OIDC_SHARED_GROUP): derived from the setting, never the group's own name.
 */
export const oidcSharedGroupKey = (name: string): string =>
  createHash('sha256').update(name).digest('hex').slice(0, 40);

/** Characters a group name may have (the column is varchar(255)). */
export const GROUP_NAME_MAX_LENGTH = 255;

/** What deleting a group leaves to do once it has committed. */
export interface DeletedGroup {
  /** Who were its members (their default group may have to move on). */
  memberIds: string[];
  /** The files other modules kept for it (`GroupLifecycle`). */
  kept: KeptGroupFiles;
}

/** One of a user's groups with the user's role in it. */
export interface GroupWithRole extends GroupDto {
  role: GroupRole;
}

/**
 * Groups and their members. Membership is where a user's role lives; the user's default group
 * (kept by the accounts module) always points at one of their groups, or nowhere.
 */
@Injectable()
export class GroupsService {
  constructor(
    private readonly groups: GroupRepository,
    private readonly currencies: CurrenciesService,
    private readonly lifecycle: GroupLifecycle,
    private readonly changes: ChangeEvents,
    private readonly verified: VerifiedCredentials,
  ) {}

  /** The row of a group, for another module's stored views (read in the unit of work). */
  async findStored(groupId: string): Promise<GroupRecord> {
    return this.findGroupOrFail(groupId);
  }

  /**
   * Creates a group owned by `ownerId` with what a new group starts with (the seeds of the
   * modules registered with `GroupLifecycle`), in the caller's unit of work (or its own). A
   * name longer than a group name may be (such as "<255-character user name>'s Home") is cut
   * to fit.
   */
  @Transactional()
  async createOwnedGroup(
    ownerId: string,
    name: string,
    options: GroupSeedOptions,
  ): Promise<GroupDto> {
    const fitted = [...name].slice(0, GROUP_NAME_MAX_LENGTH).join('');
    const group = await this.groups.insert(fitted);
    await this.groups.insertMembership(group.id, ownerId, 'owner');
    await this.lifecycle.seed(group.id, options);
    return toGroupDto(group);
  }

  /** Adds a member with `role` (their default group is the accounts module's to set). */
  async insertMember(groupId: string, userId: string, role: GroupRole): Promise<void> {
    await this.groups.insertMembership(groupId, userId, role);
    this.verified.forgetUser(userId);
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

  /** A page of every group of the instance, by name (an instance administrator's list). */
  async listAll(
    search: string | undefined,
    page: number,
    pageSize: number,
  ): Promise<{ items: GroupListing[]; total: number }> {
    return this.groups.findPage(search, page, pageSize);
  }

  /** How many groups each of these users belongs to. */
  async membershipCounts(userIds: string[]): Promise<Map<string, number>> {
    return userIds.length === 0 ? new Map() : this.groups.membershipCounts(userIds);
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

  /** Releases the files modules kept for a deleted group, once its deletion has committed. */
  async releaseFilesOf(deleted: DeletedGroup): Promise<void> {
    await this.lifecycle.release(deleted.kept);
  }

  /** The group's memberships. */
  async memberships(groupId: string): Promise<GroupMembershipRecord[]> {
    return this.groups.findMemberships(groupId);
  }

  /** Removes a member; not the caller, not the group's last member. */
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
  }

  /** Changes a member's role; the group's last owner cannot be demoted. */
  @Transactional()
  async setMemberRole(
    user: AuthUser,
    memberId: string,
    role: GroupRole,
  ): Promise<GroupMembershipRecord> {
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
    return membership;
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
   * Sets the role an identity provider grants in a group the role mapping names (not the shared
   * group): exactly that role, even when it leaves the group without an owner, since the provider
   * decides who owns it.
   */
  @Transactional()
  async applyGrantedRole(groupId: string, userId: string, role: GroupRole): Promise<void> {
    await this.groups.setRole(groupId, userId, role);
    this.verified.forgetUser(userId);
    await this.changes.publish(groupId, 'user.mutation');
  }

  /**
   * Ends a membership the identity provider granted (a provider group it no longer lists the user
   * in): whatever the role, and even the last member's, since the provider decides who is in the
   * group. Does nothing when they are not a member. The user's default group is the accounts
   * module's to move on.
   */
  @Transactional()
  async removeGrantedMember(groupId: string, userId: string): Promise<boolean> {
    const membership = await this.groups.findMembership(groupId, userId);
    if (!membership) return false;
    await this.groups.deleteMembership(membership.id);
    this.verified.forgetUser(userId);
    await this.changes.publish(groupId, 'user.mutation');
    return true;
  }

  /**
   * Serialises the creation of the group shared under `key` until the unit of work ends, so two
   * first sign-ins cannot create two.
   */
  async lockOidcShared(key: string): Promise<void> {
    await this.groups.lockOidcSharedKey(key);
  }

  /** Makes the group the one OIDC sign-ins share under `key`. */
  async markOidcShared(groupId: string, key: string): Promise<void> {
    await this.groups.setOidcSharedKey(groupId, key);
  }

  /** The id of the group shared under `key` (see `oidcSharedGroupKey`), if it exists yet. */
  async findOidcShared(key: string): Promise<string | undefined> {
    return (await this.groups.findByOidcSharedKey(key))?.id;
  }

  /**
   * Deletes the caller's group (not their only one); returns its former members and the keys of
   * its stored files, to release once this commits (`releaseFilesOf`).
   */
  @Transactional()
  async deleteGroup(user: AuthUser): Promise<DeletedGroup> {
    const memberships = await this.groups.countMembershipsOf(user.id);
    if (memberships <= 1) {
      throw new BadRequestException('cannot delete your only group; create or join another first');
    }
    const members = await this.groups.findMemberships(user.groupId);
    const kept = await this.lifecycle.filesOf(user.groupId);
    await this.groups.delete(user.groupId);
    return { memberIds: members.map((member) => member.userId), kept };
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
