import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user.js';
import { ApiAuth } from '../auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { Idempotent } from '../common/idempotency/idempotent.decorator.js';
import { ApiUuidParam, UuidParam } from '../common/validation/uuid-param.decorator.js';
import { CreateEntityDto } from './dto/create-entity.dto.js';
import { DuplicateEntityDto } from './dto/duplicate-entity.dto.js';
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
import { PatchEntityDto } from './dto/patch-entity.dto.js';
import { UpdateEntityDto } from './dto/update-entity.dto.js';
import { EntitiesService } from './entities.service.js';
import { EntityDuplicatesService } from './entity-duplicates.service.js';

@ApiTags('entities')
@ApiAuth()
@Controller('entities')
export class EntitiesController {
  constructor(
    private readonly entities: EntitiesService,
    private readonly duplicates: EntityDuplicatesService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Find entities: text, tags, parents, custom fields, photos; paged' })
  @ApiOkResponse({ type: EntityPageDto })
  @ApiErrors(422)
  listEntities(
    @CurrentUser() user: AuthUser,
    @Query() query: ListEntitiesQueryDto,
  ): Promise<EntityPageDto> {
    return this.entities.list(user, query);
  }

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create an entity; it gets the next asset id of the group' })
  @ApiCreatedResponse({ type: EntitySummaryDto })
  @ApiErrors(422)
  createEntity(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateEntityDto,
  ): Promise<EntitySummaryDto> {
    return this.entities.create(user, dto);
  }

  @Get('tree')
  @ApiOperation({ summary: 'Locations nested in locations, optionally with the items inside' })
  @ApiOkResponse({ type: [EntityTreeNodeDto] })
  getEntityTree(
    @CurrentUser() user: AuthUser,
    @Query() query: EntityTreeQueryDto,
  ): Promise<EntityTreeNodeDto[]> {
    return this.entities.tree(user, query.withItems ?? false);
  }

  @Get('fields')
  @ApiOperation({ summary: 'Names of the custom fields used in the group' })
  @ApiOkResponse({ type: [String] })
  listFieldNames(@CurrentUser() user: AuthUser): Promise<string[]> {
    return this.entities.fieldNames(user);
  }

  @Get('fields/values')
  @ApiOperation({ summary: 'Text values used for one custom field in the group' })
  @ApiOkResponse({ type: [String] })
  @ApiErrors(422)
  listFieldValues(
    @CurrentUser() user: AuthUser,
    @Query() query: FieldValuesQueryDto,
  ): Promise<string[]> {
    return this.entities.fieldValues(user, query.field);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'An entity with its type, parents, tags, fields, attachments and child locations',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiOkResponse({ type: EntitySummaryDto })
  @ApiErrors(400, 404)
  getEntity(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<EntitySummaryDto> {
    return this.entities.get(user, id);
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
  ): Promise<EntitySummaryDto> {
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
  ): Promise<EntitySummaryDto> {
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

  @Post(':id/duplicate')
  @Idempotent()
  @ApiOperation({
    summary: 'Copy an entity, optionally with its fields, attachments and maintenance',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiCreatedResponse({ type: EntitySummaryDto })
  @ApiErrors(400, 404, 422)
  duplicateEntity(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: DuplicateEntityDto,
  ): Promise<EntitySummaryDto> {
    return this.duplicates.duplicate(user, id, dto);
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
    return this.entities.path(user, id);
  }
}

@ApiTags('entities')
@ApiAuth()
@Controller('assets')
export class AssetsController {
  constructor(private readonly entities: EntitiesService) {}

  @Get(':id')
  @ApiOperation({ summary: 'Entities of the group with an asset id (`000-123` or `123`)' })
  @ApiParam({ name: 'id', description: 'Asset id', example: '000-123' })
  @ApiOkResponse({ type: AssetPageDto })
  @ApiErrors(400)
  getAsset(
    @CurrentUser() user: AuthUser,
    @Param('id') assetId: string,
    @Query() query: AssetPageQueryDto,
  ): Promise<AssetPageDto> {
    return this.entities.findByAssetId(user, assetId, query.page, query.pageSize);
  }
}
