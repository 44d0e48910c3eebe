import { Body, Controller, Delete, Get, Header, HttpCode, Post, Put } from '@nestjs/common';
import {
  ApiBody,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthIdentity } from '../auth/auth-user.js';
import { ApiAuth } from '../auth/decorators/api-auth.decorator.js';
import { CurrentIdentity } from '../auth/decorators/current-user.decorator.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { UserScope } from '../auth/decorators/user-scope.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { RegisterDto } from './dto/register.dto.js';
import { ChangePasswordDto, SettingsItemDto, UpdateSelfDto, UserItemDto } from './dto/user.dto.js';
import { RegistrationService } from './registration.service.js';
import { UsersService } from './users.service.js';

@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly registration: RegistrationService,
  ) {}

  @Public()
  @Post('register')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Register; with an invitation token, join its group',
    description:
      'Without a token a new group "<name>\'s Home" is created, with the entity types Item and ' +
      'Location, eight starter locations and six tags. Passwords need 8 to 1024 characters.',
  })
  @ApiNoContentResponse()
  @ApiErrors(403, 404, 409, 410, 422)
  register(@Body() dto: RegisterDto): Promise<void> {
    return this.registration.register(dto);
  }

  @Get('self')
  @UserScope()
  @ApiAuth()
  @ApiOperation({ summary: 'The caller' })
  @ApiOkResponse({ type: UserItemDto })
  async getSelf(@CurrentIdentity() caller: AuthIdentity): Promise<UserItemDto> {
    return { item: await this.users.getSelf(caller) };
  }

  @Put('self')
  @UserScope()
  @ApiAuth()
  @ApiOperation({ summary: 'Change the caller’s name or e-mail address' })
  @ApiOkResponse({ type: UserItemDto })
  @ApiErrors(409, 422)
  async updateSelf(
    @CurrentIdentity() caller: AuthIdentity,
    @Body() dto: UpdateSelfDto,
  ): Promise<UserItemDto> {
    return { item: await this.users.updateSelf(caller, dto) };
  }

  @Delete('self')
  @UserScope()
  @ApiAuth()
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete the caller’s account with its sessions and API keys' })
  @ApiNoContentResponse()
  deleteSelf(@CurrentIdentity() caller: AuthIdentity): Promise<void> {
    return this.users.deleteSelf(caller);
  }

  @Get('self/settings')
  @UserScope()
  @ApiAuth()
  @Header('Cache-Control', 'no-store')
  @ApiOperation({ summary: 'The caller’s client settings' })
  @ApiOkResponse({ type: SettingsItemDto })
  async getSettings(@CurrentIdentity() caller: AuthIdentity): Promise<SettingsItemDto> {
    return { item: await this.users.getSettings(caller) };
  }

  @Put('self/settings')
  @UserScope()
  @ApiAuth()
  @ApiOperation({
    summary: 'Replace the caller’s client settings',
    description:
      'Any JSON object of at most 64 KiB (as JSON) that nests at most 16 levels; a larger or ' +
      'deeper one is a 422 naming `settings`.',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({ type: SettingsItemDto })
  @ApiErrors(400, 413, 422)
  async putSettings(
    @CurrentIdentity() caller: AuthIdentity,
    @Body() settings: Record<string, unknown>,
  ): Promise<SettingsItemDto> {
    return { item: await this.users.putSettings(caller, settings) };
  }

  @Put('change-password')
  @UserScope()
  @ApiAuth()
  @HttpCode(204)
  @ApiOperation({ summary: 'Change the password; the caller’s other sessions end' })
  @ApiNoContentResponse()
  @ApiErrors(400, 422)
  changePassword(
    @CurrentIdentity() caller: AuthIdentity,
    @Body() dto: ChangePasswordDto,
  ): Promise<void> {
    return this.users.changePassword(caller, dto);
  }

  @Put('self/change-password')
  @UserScope()
  @ApiAuth()
  @HttpCode(204)
  @ApiOperation({ summary: 'Change the password (the path Homebox clients use)' })
  @ApiNoContentResponse()
  @ApiErrors(400, 422)
  changeOwnPassword(
    @CurrentIdentity() caller: AuthIdentity,
    @Body() dto: ChangePasswordDto,
  ): Promise<void> {
    return this.users.changePassword(caller, dto);
  }
}
