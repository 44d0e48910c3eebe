import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { Idempotent } from '../../platform/idempotency/idempotency.interceptor.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { ApiKeysService } from './api-keys.service.js';
import type { AuthIdentity } from './auth-user.js';
import { ApiAuth } from './decorators/api-auth.decorator.js';
import { CurrentIdentity } from './decorators/current-user.decorator.js';
import { UserScope } from './decorators/user-scope.decorator.js';
import { ApiKeyCreatedDto, ApiKeyDto, CreateApiKeyDto } from './dto/api-key.dto.js';

@ApiTags('users')
@ApiAuth()
@UserScope()
@Controller('users/self/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: 'The caller’s API keys, newest first' })
  @ApiOkResponse({ type: [ApiKeyDto] })
  listApiKeys(@CurrentIdentity() caller: AuthIdentity): Promise<ApiKeyDto[]> {
    return this.apiKeys.list(caller);
  }

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create an API key; its secret is shown only in this response' })
  @ApiCreatedResponse({ type: ApiKeyCreatedDto })
  @ApiErrors(422)
  createApiKey(
    @CurrentIdentity() caller: AuthIdentity,
    @Body() dto: CreateApiKeyDto,
  ): Promise<ApiKeyCreatedDto> {
    return this.apiKeys.create(caller, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete one of the caller’s API keys' })
  @ApiUuidParam('id', 'API key id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  deleteApiKey(
    @CurrentIdentity() caller: AuthIdentity,
    @UuidParam('id') id: string,
  ): Promise<void> {
    return this.apiKeys.remove(caller, id);
  }
}
