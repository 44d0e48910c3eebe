import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { Idempotent } from '../../platform/idempotency/idempotency.interceptor.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { CreateEntityTypeDto } from './dto/create-entity-type.dto.js';
import { EntityTypeSummaryDto } from './dto/entity-type-summary.dto.js';
import { UpdateEntityTypeDto } from './dto/update-entity-type.dto.js';
import { EntityTypesService } from './entity-types.service.js';

@ApiTags('entity-types')
@ApiAuth()
@Controller('entity-types')
export class EntityTypesController {
  constructor(private readonly entityTypes: EntityTypesService) {}

  @Get()
  @ApiOperation({ summary: 'The group’s entity types, by name' })
  @ApiOkResponse({ type: [EntityTypeSummaryDto] })
  listEntityTypes(@CurrentUser() user: AuthUser): Promise<EntityTypeSummaryDto[]> {
    return this.entityTypes.list(user);
  }

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create an entity type' })
  @ApiCreatedResponse({ type: EntityTypeSummaryDto })
  @ApiErrors(400, 422)
  createEntityType(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateEntityTypeDto,
  ): Promise<EntityTypeSummaryDto> {
    return this.entityTypes.create(user, dto);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Replace an entity type',
    description:
      'A full replacement: omitted `isLocation`, `icon` and `defaultTemplateId` take their ' +
      'defaults (false, "", none); `description` is kept unless given; `id` in the body is ignored.',
  })
  @ApiUuidParam('id', 'Entity type id')
  @ApiOkResponse({ type: EntityTypeSummaryDto })
  @ApiErrors(400, 404, 422)
  updateEntityType(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: UpdateEntityTypeDto,
  ): Promise<EntityTypeSummaryDto> {
    return this.entityTypes.update(user, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an entity type that no entity uses' })
  @ApiUuidParam('id', 'Entity type id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404, 409)
  deleteEntityType(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<void> {
    return this.entityTypes.remove(user, id);
  }
}
