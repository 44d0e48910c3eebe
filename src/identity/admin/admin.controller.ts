import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import type { AuthIdentity } from '../auth/auth-user.js';
import { ApiAuth } from '../auth/decorators/api-auth.decorator.js';
import { CurrentIdentity } from '../auth/decorators/current-user.decorator.js';
import { AdminService } from './admin.service.js';
import { AdminGroupPageDto } from './dto/admin-group.dto.js';
import { AdminListQueryDto } from './dto/admin-list.query.dto.js';
import { AdminStatusDto } from './dto/admin-status.dto.js';
import { AdminUserPageDto } from './dto/admin-user.dto.js';
import { InstanceAdminOnly } from './instance-admin.decorator.js';

/** The instance administrators' API: every user and group, and disabling accounts. */
@ApiTags('admin')
@ApiAuth()
@InstanceAdminOnly()
@Controller('admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Get('users')
  @ApiOperation({ summary: 'Every user of the instance, by name (instance administrators)' })
  @ApiOkResponse({ type: AdminUserPageDto })
  @ApiErrors(422)
  listUsers(@Query() query: AdminListQueryDto): Promise<AdminUserPageDto> {
    return this.admin.listUsers(query);
  }

  @Get('groups')
  @ApiOperation({ summary: 'Every group of the instance, by name (instance administrators)' })
  @ApiOkResponse({ type: AdminGroupPageDto })
  @ApiErrors(422)
  listGroups(@Query() query: AdminListQueryDto): Promise<AdminGroupPageDto> {
    return this.admin.listGroups(query);
  }

  @Post('users/:id/disable')
  @HttpCode(204)
  @ApiOperation({
    summary:
      'Disable an account (instance administrators): every session, token, socket and API key ' +
      'of it ends at once; not your own',
  })
  @ApiUuidParam('id', 'User id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404, 409)
  disableUser(@CurrentIdentity() caller: AuthIdentity, @UuidParam('id') id: string): Promise<void> {
    return this.admin.disable(caller, id);
  }

  @Post('users/:id/enable')
  @HttpCode(204)
  @ApiOperation({ summary: 'Enable a disabled account again (instance administrators)' })
  @ApiUuidParam('id', 'User id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  enableUser(@UuidParam('id') id: string): Promise<void> {
    return this.admin.enable(id);
  }

  @Get('status')
  @ApiOperation({
    summary: 'Whether single sign-on, SCIM, local login and registration are on (no secrets)',
  })
  @ApiOkResponse({ type: AdminStatusDto })
  status(): AdminStatusDto {
    return this.admin.status();
  }
}
