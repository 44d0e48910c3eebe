import { ForbiddenException, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import type { GroupRole } from '../auth/group-role.js';
import { PasswordsService } from '../auth/passwords.service.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';
import { GroupInvitationsService } from '../groups/group-invitations.service.js';
import { GroupsService } from '../groups/groups.service.js';
import type { RegisterDto } from './dto/register.dto.js';
import type { UserRecord } from './user.record.js';
import { LOCAL_LOGIN_DISABLED, type NewUser, UsersService } from './users.service.js';

/** "<name>'s Home", shortening the name so the group name fits its 255 characters. */
export const homeGroupName = (name: string): string =>
  `${name.slice(0, 255 - "'s Home".length)}'s Home`;

/**
 * How an account starts and how a user joins a group: registration (with a group of their own, or
 * into an invitation's group), a new account with its own group, and a membership that makes the
 * group the user's default when they have none.
 */
@Injectable()
export class RegistrationService {
  constructor(
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly invitations: GroupInvitationsService,
    private readonly passwords: PasswordsService,
    private readonly config: ConfigService<TroveConfig, true>,
    private readonly changes: ChangeEvents,
  ) {}

  private get options(): TroveConfig['options'] {
    return this.config.get('options', { infer: true });
  }

  /**
   * Creates a user. Without an invitation token they get a new group of their own; with one
   * they join its group with its role.
   */
  async register(dto: RegisterDto): Promise<void> {
    if (!this.options.allowLocalLogin) throw new ForbiddenException(LOCAL_LOGIN_DISABLED);
    const token = dto.token?.trim() || undefined;
    if (!token && !this.options.allowRegistration) {
      throw new ForbiddenException('user registration disabled');
    }
    const passwordHash = await this.passwords.hash(dto.password);
    await this.registerHashed(
      { name: dto.name.trim() || dto.name, email: dto.email, passwordHash },
      token,
    );
  }

  @Transactional()
  private async registerHashed(newUser: NewUser, token: string | undefined): Promise<void> {
    if (token) {
      const invitation = await this.invitations.claim(token);
      const user = await this.users.insertUser(newUser);
      await this.joinGroup(invitation.groupId, user.id, invitation.role);
    } else {
      await this.createWithOwnGroup(newUser, homeGroupName(newUser.name));
    }
  }

  /** Inserts a user and a group they own, seeded with starter locations and tags. */
  @Transactional()
  async createWithOwnGroup(newUser: NewUser, groupName: string): Promise<UserRecord> {
    const user = await this.users.insertUser(newUser);
    const group = await this.groups.createOwnedGroup(user.id, groupName, { starter: true });
    user.defaultGroupId = group.id;
    await this.users.setDefaultGroup(user.id, group.id);
    return user;
  }

  /** Adds a member and makes the group their default if they have none. */
  @Transactional()
  async joinGroup(groupId: string, userId: string, role: GroupRole): Promise<void> {
    await this.groups.insertMember(groupId, userId, role);
    await this.users.setDefaultGroupIfNone(userId, groupId);
    await this.changes.publish(groupId, 'user.mutation');
  }
}
