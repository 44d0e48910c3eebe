import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthIdentity, AuthUser } from '../auth/auth-user.js';
import { ApiAuth } from '../auth/decorators/api-auth.decorator.js';
import { CurrentIdentity, CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { Roles } from '../auth/decorators/roles.decorator.js';
import { UserScope } from '../auth/decorators/user-scope.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { Idempotent } from '../../platform/idempotency/idempotency.interceptor.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { CreateGroupDto, GroupDto, UpdateGroupDto } from '../groups/dto/group.dto.js';
import {
  CreateInvitationDto,
  GroupInvitationCreatedDto,
  GroupInvitationDto,
  JoinedGroupDto,
} from '../groups/dto/group-invitation.dto.js';
import { GroupMemberDto, UpdateMemberRoleDto } from '../groups/dto/group-member.dto.js';
import { GroupInvitationsService } from '../groups/group-invitations.service.js';
import { GroupsService } from '../groups/groups.service.js';
import { AccountsService } from './accounts.service.js';

@ApiTags('groups')
@ApiAuth()
@Controller('groups')
export class GroupsController {
  constructor(
    private readonly groups: GroupsService,
    private readonly invitations: GroupInvitationsService,
    private readonly accounts: AccountsService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The current group (X-Tenant, ?tenant=, or the default group)' })
  @ApiOkResponse({ type: GroupDto })
  getGroup(@CurrentUser() user: AuthUser): Promise<GroupDto> {
    return this.groups.get(user);
  }

  @Put()
  @Roles('owner')
  @ApiOperation({ summary: 'Rename the group or change its currency (owner)' })
  @ApiOkResponse({ type: GroupDto })
  @ApiErrors(422)
  updateGroup(@CurrentUser() user: AuthUser, @Body() dto: UpdateGroupDto): Promise<GroupDto> {
    return this.groups.update(user, dto);
  }

  @Post()
  @Idempotent()
  @UserScope()
  @ApiOperation({ summary: 'Create a group; the caller becomes its owner' })
  @ApiCreatedResponse({ type: GroupDto })
  @ApiErrors(422)
  createGroup(
    @CurrentIdentity() caller: AuthIdentity,
    @Body() dto: CreateGroupDto,
  ): Promise<GroupDto> {
    return this.accounts.createGroup(caller, dto);
  }

  @Delete()
  @Roles('owner')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete the group and everything in it (owner; not your only group)' })
  @ApiNoContentResponse()
  @ApiErrors(400)
  deleteGroup(@CurrentUser() user: AuthUser): Promise<void> {
    return this.accounts.removeGroup(user);
  }

  @Get('all')
  @UserScope()
  @ApiOperation({ summary: 'Every group the caller belongs to' })
  @ApiOkResponse({ type: [GroupDto] })
  listAllGroups(@CurrentIdentity() caller: AuthIdentity): Promise<GroupDto[]> {
    return this.groups.listForUser(caller);
  }

  @Get('members')
  @ApiOperation({ summary: 'Members of the group with their roles' })
  @ApiOkResponse({ type: [GroupMemberDto] })
  listMembers(@CurrentUser() user: AuthUser): Promise<GroupMemberDto[]> {
    return this.accounts.listMembers(user);
  }

  @Put('members/:user_id')
  @Roles('owner')
  @ApiOperation({ summary: 'Change a member’s role (owner); the last owner cannot be demoted' })
  @ApiUuidParam('user_id', 'Member’s user id')
  @ApiOkResponse({ type: GroupMemberDto })
  @ApiErrors(400, 404, 409, 422)
  updateMemberRole(
    @CurrentUser() user: AuthUser,
    @UuidParam('user_id') memberId: string,
    @Body() dto: UpdateMemberRoleDto,
  ): Promise<GroupMemberDto> {
    return this.accounts.setMemberRole(user, memberId, dto.role);
  }

  @Delete('members/:user_id')
  @Roles('owner')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a member (owner); not yourself, not the last member' })
  @ApiUuidParam('user_id', 'Member’s user id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  removeMember(
    @CurrentUser() user: AuthUser,
    @UuidParam('user_id') memberId: string,
  ): Promise<void> {
    return this.accounts.removeMember(user, memberId);
  }

  @Get('invitations')
  @ApiOperation({ summary: 'Invitations of the group that can still be used' })
  @ApiOkResponse({ type: [GroupInvitationDto] })
  listInvitations(@CurrentUser() user: AuthUser): Promise<GroupInvitationDto[]> {
    return this.invitations.list(user);
  }

  @Post('invitations')
  @Idempotent()
  @Roles('owner')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an invitation (owner); its token is shown only in this response',
  })
  @ApiOkResponse({ type: GroupInvitationCreatedDto })
  @ApiErrors(422)
  createInvitation(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateInvitationDto,
  ): Promise<GroupInvitationCreatedDto> {
    return this.invitations.create(user, dto);
  }

  @Delete('invitations/:id')
  @Roles('owner')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an invitation by its id (owner)' })
  @ApiUuidParam('id', 'Invitation id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  deleteInvitation(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<void> {
    return this.invitations.remove(user, id);
  }

  @Post('invitations/:token')
  @Idempotent()
  @UserScope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Join the group of an invitation, by its token' })
  @ApiParam({ name: 'token', description: 'The invitation’s token (not its id)' })
  @ApiOkResponse({ type: JoinedGroupDto })
  @ApiErrors(404, 409, 410)
  acceptInvitation(
    @CurrentIdentity() caller: AuthIdentity,
    @Param('token') token: string,
  ): Promise<JoinedGroupDto> {
    return this.accounts.acceptInvitation(caller, token);
  }
}
