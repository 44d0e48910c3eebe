import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { TroveConfig } from '../../platform/config/configuration.js';
import type { AuthIdentity } from '../auth/auth-user.js';
import { GroupsService } from '../groups/groups.service.js';
import { UsersService } from '../users/users.service.js';
import type { AdminGroupPageDto } from './dto/admin-group.dto.js';
import { DEFAULT_ADMIN_PAGE_SIZE, type AdminListQueryDto } from './dto/admin-list.query.dto.js';
import type { AdminStatusDto } from './dto/admin-status.dto.js';
import type { AdminUserPageDto } from './dto/admin-user.dto.js';

export const CANNOT_DISABLE_SELF =
  'you cannot disable your own account; ask another instance administrator';

/** What a search of the lists looks for: the trimmed text, or nothing when it is empty. */
const searchOf = (q: string | undefined): string | undefined =>
  q === undefined || q.trim() === '' ? undefined : q.trim();

/**
 * The instance administrators' view of the whole instance: every user and group, disabling and
 * enabling accounts, and how people get in (single sign-on, SCIM, local login, registration).
 * The guard of its routes (`InstanceAdminGuard`) asks `isInstanceAdmin`.
 */
@Injectable()
export class AdminService {
  constructor(
    private readonly users: UsersService,
    private readonly groups: GroupsService,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /** Whether the user of this id is an instance administrator (false for an unknown id). */
  async isInstanceAdmin(userId: string): Promise<boolean> {
    const user = await this.users.findById(userId);
    return user !== null && this.users.isInstanceAdmin(user);
  }

  /** The name of the user of this id, if any. */
  async nameOf(userId: string): Promise<string | undefined> {
    return (await this.users.findById(userId))?.name;
  }

  /** A page of every user, by name, with how many groups each belongs to. */
  async listUsers(query: AdminListQueryDto): Promise<AdminUserPageDto> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_ADMIN_PAGE_SIZE;
    const found = await this.users.listAll(searchOf(query.q), page, pageSize);
    const counts = await this.groups.membershipCounts(found.items.map((user) => user.id));
    return {
      page,
      pageSize,
      total: found.total,
      items: found.items.map((user) => ({
        id: user.id,
        name: user.name,
        email: user.email,
        disabled: user.disabled,
        instanceAdmin: this.users.isInstanceAdmin(user),
        groups: counts.get(user.id) ?? 0,
        createdAt: user.createdAt.toISOString(),
      })),
    };
  }

  /** A page of every group, by name, with how many members each has. */
  async listGroups(query: AdminListQueryDto): Promise<AdminGroupPageDto> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_ADMIN_PAGE_SIZE;
    const found = await this.groups.listAll(searchOf(query.q), page, pageSize);
    return {
      page,
      pageSize,
      total: found.total,
      items: found.items.map((group) => ({
        id: group.id,
        name: group.name,
        members: group.members,
        createdAt: group.createdAt.toISOString(),
      })),
    };
  }

  /**
   * Disables an account (404 for an unknown one, 409 for the caller's own): every session,
   * attachment token, change-feed socket and API key of it ends at once.
   */
  async disable(caller: AuthIdentity, userId: string): Promise<void> {
    await this.findOrFail(userId);
    if (userId === caller.id) throw new ConflictException(CANNOT_DISABLE_SELF);
    await this.users.setDisabled(userId, true);
  }

  /** Enables an account again (404 for an unknown one); its ended credentials stay ended. */
  async enable(userId: string): Promise<void> {
    await this.findOrFail(userId);
    await this.users.setDisabled(userId, false);
  }

  /** How people get into the instance; no secret of it. */
  status(): AdminStatusDto {
    const oidc = this.config.get('oidc', { infer: true });
    const options = this.config.get('options', { infer: true });
    return {
      sso: {
        configured: oidc.enabled,
        issuer: oidc.enabled ? oidc.issuerUrl : null,
        sharedGroup: oidc.enabled && oidc.sharedGroup !== '' ? oidc.sharedGroup : null,
      },
      scim: { configured: this.config.get('scim', { infer: true }).token !== '' },
      localLogin: options.allowLocalLogin,
      registration: options.allowLocalLogin && options.allowRegistration,
      adminEmails: options.adminEmails.length,
    };
  }

  private async findOrFail(userId: string): Promise<void> {
    if (!(await this.users.findById(userId))) {
      throw new NotFoundException(`user ${userId} not found`);
    }
  }
}
