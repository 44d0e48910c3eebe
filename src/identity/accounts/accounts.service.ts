import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthIdentity, AuthUser } from '../auth/auth-user.js';
import type { GroupRole } from '../auth/group-role.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';
import type { CreateGroupDto, GroupDto } from '../groups/dto/group.dto.js';
import type { JoinedGroupDto } from '../groups/dto/group-invitation.dto.js';
import type { GroupMemberDto } from '../groups/dto/group-member.dto.js';
import { GroupInvitationsService } from '../groups/group-invitations.service.js';
import type { GroupMembershipRecord } from '../groups/group-membership.record.js';
import { GroupsService } from '../groups/groups.service.js';
import { RegistrationService } from '../users/registration.service.js';
import { UsersService } from '../users/users.service.js';

/**
 * Accounts and the groups they belong to, and `/api/v1/groups`: a new group with what it starts
 * with, members, roles and invitations, and the rule that a user's default group is always one of
 * their groups (or none when they have none). Every change of membership that can move the default
 * group goes through here (a user joins one through `RegistrationService.joinGroup`).
 */
@Injectable()
export class AccountsService {
  constructor(
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly invitations: GroupInvitationsService,
    private readonly registration: RegistrationService,
    private readonly changes: ChangeEvents,
  ) {}

  /** A group the caller creates: they own it, and it becomes their default if they have none. */
  @Transactional()
  async createGroup(caller: AuthIdentity, dto: CreateGroupDto): Promise<GroupDto> {
    const group = await this.groups.createOwnedGroup(caller.id, dto.name, { starter: false });
    await this.users.setDefaultGroupIfNone(caller.id, group.id);
    return group;
  }

  /** A signed-in user joins the invitation's group. */
  @Transactional()
  async acceptInvitation(caller: AuthIdentity, token: string): Promise<JoinedGroupDto> {
    const invitation = await this.invitations.claim(token, caller.id);
    await this.registration.joinGroup(invitation.groupId, caller.id, invitation.role);
    const group = await this.groups.getById(invitation.groupId);
    return { id: group.id, name: group.name };
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
    await this.groups.lockOidcShared(key);
    const found = await this.groups.findOidcShared(key);
    if (found) return { id: found, created: false };
    const group = await this.groups.createOwnedGroup(userId, name, { starter: false });
    await this.groups.markOidcShared(group.id, key);
    return { id: group.id, created: true };
  }

  /** Points the user's default group at one of their groups if it no longer is one. */
  @Transactional()
  async repairDefaultGroup(userId: string): Promise<void> {
    await this.users.keepDefaultGroupAmong(userId, await this.groups.groupIdsOf(userId));
  }

  /** Removes a member (not the caller, not the last one); their default group moves on. */
  @Transactional()
  async removeMember(user: AuthUser, memberId: string): Promise<void> {
    await this.groups.removeMember(user, memberId);
    await this.repairDefaultGroup(memberId);
    await this.changes.publish(user.groupId, 'user.mutation');
  }

  /**
   * Deletes the group and everything in it (refused when it is the caller's only group), moves
   * its members' default groups on, then releases the files kept for it.
   */
  async removeGroup(user: AuthUser): Promise<void> {
    const deleted = await this.deleteGroup(user);
    await this.changes.publish(user.groupId, 'user.mutation');
    await this.groups.releaseFilesOf(deleted);
  }

  @Transactional()
  private async deleteGroup(user: AuthUser) {
    const deleted = await this.groups.deleteGroup(user);
    for (const memberId of deleted.memberIds) await this.repairDefaultGroup(memberId);
    return deleted;
  }

  /** Members of the group with their roles, by name (then id). */
  async listMembers(user: AuthUser): Promise<GroupMemberDto[]> {
    return this.toMembers(await this.groups.memberships(user.groupId));
  }

  /** Changes a member's role; the group's last owner cannot be demoted. */
  async setMemberRole(user: AuthUser, memberId: string, role: GroupRole): Promise<GroupMemberDto> {
    const [member] = await this.toMembers([await this.groups.setMemberRole(user, memberId, role)]);
    return member;
  }

  /** The members of these memberships, by name (then id). */
  private async toMembers(memberships: GroupMembershipRecord[]): Promise<GroupMemberDto[]> {
    const roles = new Map(memberships.map((membership) => [membership.userId, membership.role]));
    const users = await this.users.summariesOf([...roles.keys()]);
    return users.map((user) => ({ ...user, role: roles.get(user.id)! }));
  }
}
