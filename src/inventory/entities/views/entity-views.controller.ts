import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { ApiAuth } from '../../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../../platform/http/api-errors.decorator.js';
import type { JsonText } from '../../../platform/http/json-text.js';
import { ApiUuidParam, UuidParam } from '../../../platform/http/validation/uuid-param.decorator.js';
import {
  AssetPageQueryDto,
  EntityTreeQueryDto,
  FieldValuesQueryDto,
} from './dto/entity-queries.dto.js';
import {
  AssetPageDto,
  EntityPageDto,
  EntityPathDto,
  EntitySummaryDto,
  EntityTreeNodeDto,
} from './dto/entity-summary.dto.js';
import { ListEntitiesQueryDto } from './dto/list-entities.query.dto.js';
import { EntityViewsService } from './entity-views.service.js';

/**
 * The reads of entities: the list, the tree of locations, custom-field names and values, one
 * entity and its path. Its module is registered after the export's, whose `GET /entities/export`
 * must come before `GET /entities/{id}` (`inventory/entities/entities.module.ts`).
 */
@ApiTags('entities')
@ApiAuth()
@Controller('entities')
export class EntityViewsController {
  constructor(private readonly views: EntityViewsService) {}

  @Get()
  @ApiOperation({ summary: 'Find entities: text, tags, parents, custom fields, photos; paged' })
  @ApiOkResponse({ type: EntityPageDto })
  @ApiErrors(422)
  listEntities(
    @CurrentUser() user: AuthUser,
    @Query() query: ListEntitiesQueryDto,
  ): Promise<JsonText<EntityPageDto>> {
    return this.views.list(user, query);
  }

  @Get('tree')
  @ApiOperation({
    summary: 'Locations nested in locations, optionally with the items inside',
    description:
      'Without items, the answer carries an ETag that changes with every change of the ' +
      "group's locations; a request with that ETag in If-None-Match gets 304 until then.",
  })
  @ApiOkResponse({ type: [EntityTreeNodeDto] })
  @ApiResponse({ status: 304, description: 'The tree of locations is still the one of the ETag' })
  getEntityTree(
    @CurrentUser() user: AuthUser,
    @Query() query: EntityTreeQueryDto,
  ): Promise<JsonText<EntityTreeNodeDto[]>> {
    return this.views.tree(user, query.withItems ?? false);
  }

  @Get('fields')
  @ApiOperation({ summary: 'Names of the custom fields used in the group' })
  @ApiOkResponse({ type: [String] })
  listFieldNames(@CurrentUser() user: AuthUser): Promise<string[]> {
    return this.views.fieldNames(user);
  }

  @Get('fields/values')
  @ApiOperation({ summary: 'Text values used for one custom field in the group' })
  @ApiOkResponse({ type: [String] })
  @ApiErrors(422)
  listFieldValues(
    @CurrentUser() user: AuthUser,
    @Query() query: FieldValuesQueryDto,
  ): Promise<string[]> {
    return this.views.fieldValues(user, query.field);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'An entity with its type, parents, tags, fields, attachments and child locations',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiOkResponse({ type: EntitySummaryDto })
  @ApiErrors(400, 404)
  getEntity(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
  ): Promise<JsonText<EntitySummaryDto>> {
    return this.views.get(user, id);
  }

  @Get(':id/path')
  @ApiOperation({ summary: 'The entities from the top level down to this one' })
  @ApiUuidParam('id', 'Entity id')
  @ApiOkResponse({ type: [EntityPathDto] })
  @ApiErrors(400, 404)
  getEntityPath(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
  ): Promise<EntityPathDto[]> {
    return this.views.path(user, id);
  }
}

@ApiTags('entities')
@ApiAuth()
@Controller('assets')
export class AssetsController {
  constructor(private readonly views: EntityViewsService) {}

  @Get(':id')
  @ApiOperation({ summary: 'Entities of the group with an asset id (`000-123` or `123`)' })
  @ApiParam({ name: 'id', description: 'Asset id', example: '000-123' })
  @ApiOkResponse({ type: AssetPageDto })
  @ApiErrors(400)
  getAsset(
    @CurrentUser() user: AuthUser,
    @Param('id') assetId: string,
    @Query() query: AssetPageQueryDto,
  ): Promise<JsonText<AssetPageDto>> {
    return this.views.findByAssetId(user, assetId, query.page, query.pageSize);
  }
}
