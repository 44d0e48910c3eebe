import { Body, Controller, Delete, HttpCode, Patch, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { ApiAuth } from '../../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../../platform/http/api-errors.decorator.js';
import type { JsonText } from '../../../platform/http/json-text.js';
import { Idempotent } from '../../../platform/idempotency/idempotency.interceptor.js';
import { ApiUuidParam, UuidParam } from '../../../platform/http/validation/uuid-param.decorator.js';
import { EntitySummaryDto } from '../views/dto/entity-summary.dto.js';
import { CreateEntityDto } from '../core/dto/create-entity.dto.js';
import { PatchEntityDto } from '../core/dto/patch-entity.dto.js';
import { UpdateEntityDto } from '../core/dto/update-entity.dto.js';
import { EntityEditsService } from './entity-edits.service.js';

/** The writes of one entity: create, replace, change and delete. */
@ApiTags('entities')
@ApiAuth()
@Controller('entities')
export class EntitiesController {
  constructor(private readonly entities: EntityEditsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create an entity; it gets the next asset id of the group' })
  @ApiCreatedResponse({ type: EntitySummaryDto })
  @ApiErrors(422)
  createEntity(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateEntityDto,
  ): Promise<JsonText<EntitySummaryDto>> {
    return this.entities.create(user, dto);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Replace an entity’s editable state',
    description:
      'What is omitted is reset (tags, parent, dates, fields, flags, prices), except entityTypeId.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiOkResponse({ type: EntitySummaryDto })
  @ApiErrors(400, 404, 422)
  updateEntity(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: UpdateEntityDto,
  ): Promise<JsonText<EntitySummaryDto>> {
    return this.entities.update(user, id, dto);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change quantity, parent, type or tags' })
  @ApiUuidParam('id', 'Entity id')
  @ApiOkResponse({ type: EntitySummaryDto })
  @ApiErrors(400, 404, 422)
  patchEntity(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: PatchEntityDto,
  ): Promise<JsonText<EntitySummaryDto>> {
    return this.entities.patch(user, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an entity; what was inside it moves to the top level' })
  @ApiUuidParam('id', 'Entity id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  deleteEntity(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<void> {
    return this.entities.remove(user, id);
  }
}
