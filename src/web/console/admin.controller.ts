import { Body, ForbiddenException, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AccountsService } from '../../identity/accounts/accounts.service.js';
import { AdminService } from '../../identity/admin/admin.service.js';
import {
  AdminListQueryDto,
  AdminPageQueryDto,
} from '../../identity/admin/dto/admin-list.query.dto.js';
import { InstanceAdminOnly } from '../../identity/admin/instance-admin.decorator.js';
import type { AuthIdentity, AuthUser } from '../../identity/auth/auth-user.js';
import {
  CurrentIdentity,
  CurrentUser,
} from '../../identity/auth/decorators/current-user.decorator.js';
import { Roles } from '../../identity/auth/decorators/roles.decorator.js';
import { CurrenciesService } from '../../identity/currencies/currencies.service.js';
import { UpdateGroupDto } from '../../identity/groups/dto/group.dto.js';
import { CreateInvitationDto } from '../../identity/groups/dto/group-invitation.dto.js';
import { UpdateMemberRoleDto } from '../../identity/groups/dto/group-member.dto.js';
import { GroupInvitationsService } from '../../identity/groups/group-invitations.service.js';
import { GroupsService } from '../../identity/groups/groups.service.js';
import { UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { Page } from '../pages/page.decorator.js';
import { InstanceBackupsService } from '../../operations/instance-backups/instance-backups.service.js';
import {
  adminBackupsPage,
  adminGroupsPage,
  adminPage,
  adminUsersPage,
  ADMIN_PATHS,
  invitationCreatedPage,
} from './admin.views.js';
import { withQuery } from './console-layout.js';
import { ConsoleFrames } from './console-frames.service.js';
import { checked, formValues, numberField, textField } from './console-forms.js';

/** Rows of an instance list on one page. */
const ADMIN_PAGE_SIZE = 25;

export const ADMINISTRATION_FORBIDDEN =
  'only owners of this group and instance administrators can open administration';

/** The list query of a page (`q`, `page`), checked as the API checks it. */
const listQuery = (query: Record<string, unknown>) =>
  checked(AdminListQueryDto, {
    q: typeof query.q === 'string' ? query.q : undefined,
    page: typeof query.page === 'string' ? query.page : undefined,
    pageSize: String(ADMIN_PAGE_SIZE),
  });

/**
 * Administration (`/console/admin`): a group's owners manage its members (role, removal),
 * invitations and settings (name, currency); instance administrators also see every user (and
 * disable or enable accounts), every group, the instance backups, and how people get in. The same
 * services as the API (`AccountsService`, `GroupInvitationsService`, `GroupsService`,
 * `AdminService`, `InstanceBackupsService`), with its rules.
 */
@Page('console/admin')
export class AdminPagesController {
  constructor(
    private readonly frames: ConsoleFrames,
    private readonly accounts: AccountsService,
    private readonly groups: GroupsService,
    private readonly invitations: GroupInvitationsService,
    private readonly currencies: CurrenciesService,
    private readonly admin: AdminService,
    private readonly instanceBackups: InstanceBackupsService,
  ) {}

  @Get()
  async overview(@CurrentUser() user: AuthUser, @Query('done') done?: string): Promise<string> {
    const frame = await this.frames.of(user);
    if (frame.role !== 'owner' && !frame.instanceAdmin) {
      throw new ForbiddenException(ADMINISTRATION_FORBIDDEN);
    }
    const group =
      frame.role === 'owner'
        ? {
            group: await this.groups.get(user),
            members: await this.accounts.listMembers(user),
            invitations: await this.invitations.list(user),
            currencies: this.currencies.list(),
            selfId: user.id,
          }
        : undefined;
    return adminPage(frame, {
      group,
      status: frame.instanceAdmin ? this.admin.status() : undefined,
      done,
    });
  }

  @Post('group')
  @Roles('owner')
  async updateGroup(
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<void> {
    const form = formValues(body);
    const dto = await checked(UpdateGroupDto, {
      name: form.name ?? '',
      currency: form.currency ?? '',
    });
    const group = await this.groups.update(user, dto);
    this.back(response, `Saved the group: ${group.name}, prices in ${group.currency}.`);
  }

  @Post('members/:userId/role')
  @Roles('owner')
  async setRole(
    @CurrentUser() user: AuthUser,
    @UuidParam('userId') memberId: string,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<void> {
    const dto = await checked(UpdateMemberRoleDto, { role: formValues(body).role });
    const member = await this.accounts.setMemberRole(user, memberId, dto.role);
    this.back(response, `${member.name} is now ${member.role}.`);
  }

  @Post('members/:userId/remove')
  @Roles('owner')
  async removeMember(
    @CurrentUser() user: AuthUser,
    @UuidParam('userId') memberId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    const members = await this.accounts.listMembers(user);
    const member = members.find((each) => each.id === memberId);
    await this.accounts.removeMember(user, memberId);
    this.back(response, `Removed ${member?.name ?? 'the member'} from the group.`);
  }

  @Post('invitations')
  @Roles('owner')
  @HttpCode(200)
  async createInvitation(@CurrentUser() user: AuthUser, @Body() body: unknown): Promise<string> {
    const form = formValues(body);
    const expiresOn = textField(form, 'expiresOn');
    const dto = await checked(CreateInvitationDto, {
      uses: numberField(form, 'uses'),
      role: textField(form, 'role'),
      ...(expiresOn === undefined ? {} : { expiresAt: `${expiresOn.trim()}T23:59:59Z` }),
    });
    const created = await this.invitations.create(user, dto);
    return invitationCreatedPage(await this.frames.of(user), created, dto.role ?? 'user');
  }

  @Post('invitations/:id/delete')
  @Roles('owner')
  async deleteInvitation(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<void> {
    await this.invitations.remove(user, id);
    this.back(response, 'Deleted the invitation.');
  }

  @Get('users')
  @InstanceAdminOnly()
  async users(
    @CurrentUser() user: AuthUser,
    @Query() query: Record<string, unknown>,
  ): Promise<string> {
    const list = await listQuery(query);
    const [frame, page] = await Promise.all([this.frames.of(user), this.admin.listUsers(list)]);
    return adminUsersPage(frame, {
      q: list.q ?? '',
      page,
      selfId: user.id,
      done: typeof query.done === 'string' ? query.done : undefined,
    });
  }

  @Post('users/:id/disable')
  @InstanceAdminOnly()
  async disable(
    @CurrentIdentity() caller: AuthIdentity,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<void> {
    await this.admin.disable(caller, id);
    await this.backToUsers(response, body, id, 'Disabled');
  }

  @Post('users/:id/enable')
  @InstanceAdminOnly()
  async enable(
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<void> {
    await this.admin.enable(id);
    await this.backToUsers(response, body, id, 'Enabled');
  }

  @Get('groups')
  @InstanceAdminOnly()
  async allGroups(
    @CurrentUser() user: AuthUser,
    @Query() query: Record<string, unknown>,
  ): Promise<string> {
    const list = await listQuery(query);
    const [frame, page] = await Promise.all([this.frames.of(user), this.admin.listGroups(list)]);
    return adminGroupsPage(frame, { q: list.q ?? '', page });
  }

  @Get('backups')
  @InstanceAdminOnly()
  async backups(
    @CurrentUser() user: AuthUser,
    @Query() query: Record<string, unknown>,
  ): Promise<string> {
    const list = await checked(AdminPageQueryDto, {
      page: typeof query.page === 'string' ? query.page : undefined,
      pageSize: String(ADMIN_PAGE_SIZE),
    });
    const [frame, page] = await Promise.all([
      this.frames.of(user),
      this.instanceBackups.list(list.page ?? 1, ADMIN_PAGE_SIZE),
    ]);
    return adminBackupsPage(frame, page);
  }

  private back(response: Response, done: string): void {
    response.redirect(303, withQuery(ADMIN_PATHS.overview, { done }));
  }

  /** Back to the list of users where the form was (its search and page), with what was done. */
  private async backToUsers(
    response: Response,
    body: unknown,
    id: string,
    verb: string,
  ): Promise<void> {
    const form = formValues(body);
    const list = await listQuery({ q: form.q, page: form.page });
    const name = await this.admin.nameOf(id);
    response.redirect(
      303,
      withQuery(ADMIN_PATHS.users, {
        q: list.q,
        page: list.page,
        done: `${verb} ${name ?? 'the account'}.`,
      }),
    );
  }
}
