import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Logger,
  Param,
  Patch,
  Post,
  Put,
  Query,
  UploadedFile,
  UseInterceptors,
  Req,
  Res,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { StagedUpload } from '../../../platform/http/upload/staged-upload.engine.js';
import { UploadErrorsInterceptor } from '../../../platform/http/upload/upload-errors.interceptor.js';
import type { Request, Response } from 'express';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { ApiAuth } from '../../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../../identity/auth/decorators/current-user.decorator.js';
import { FileProblemsResponseDto } from '../../../platform/errors/error-response.dto.js';
import { ApiErrors } from '../../../platform/http/api-errors.decorator.js';
import { ApiCsv, sendCsv } from '../../../platform/http/csv-download.js';
import type { JsonText } from '../../../platform/http/json-text.js';
import { Idempotent } from '../../../platform/idempotency/idempotent.decorator.js';
import { ApiUuidParam, UuidParam } from '../../../platform/http/validation/uuid-param.decorator.js';
import {
  BulkEntityChangeDto,
  BulkEntityChangeResultDto,
} from '../bulk/dto/bulk-entity-change.dto.js';
import { CreateEntityDto } from './dto/create-entity.dto.js';
import { DuplicateEntityDto } from '../../actions/dto/duplicate-entity.dto.js';
import {
  AssetPageQueryDto,
  EntityTreeQueryDto,
  FieldValuesQueryDto,
} from '../views/dto/entity-queries.dto.js';
import {
  AssetPageDto,
  EntityPageDto,
  EntityPathDto,
  EntitySummaryDto,
  EntityTreeNodeDto,
} from '../views/dto/entity-summary.dto.js';
import { ListEntitiesQueryDto } from '../views/dto/list-entities.query.dto.js';
import { PatchEntityDto } from './dto/patch-entity.dto.js';
import { UpdateEntityDto } from './dto/update-entity.dto.js';
import { EntitiesService } from './entities.service.js';
import { EntityBulkService } from '../bulk/entity-bulk.service.js';
import { EntityDuplicatesService } from '../../actions/entity-duplicates.service.js';
import { EntityImportService, IMPORT_FILE_FIELD } from '../import/entity-import.service.js';
import { EntityExportsService } from '../export/entity-exports.service.js';

/** `<scheme>://<host>` of the request; behind a trusted proxy, the forwarded ones. */
const origin = (request: Request): string => `${request.protocol}://${request.host}`;

@ApiTags('entities')
@ApiAuth()
@Controller('entities')
export class EntitiesController {
  private readonly logger = new Logger('EntitiesController');

  constructor(
    private readonly entities: EntitiesService,
    private readonly duplicates: EntityDuplicatesService,
    private readonly imports: EntityImportService,
    private readonly exports: EntityExportsService,
    private readonly bulk: EntityBulkService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Find entities: text, tags, parents, custom fields, photos; paged' })
  @ApiOkResponse({ type: EntityPageDto })
  @ApiErrors(422)
  listEntities(
    @CurrentUser() user: AuthUser,
    @Query() query: ListEntitiesQueryDto,
  ): Promise<JsonText<EntityPageDto>> {
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
  ): Promise<JsonText<EntitySummaryDto>> {
    return this.entities.create(user, dto);
  }

  @Post('bulk')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({
    summary: 'Move, tag, untag, archive, unarchive, edit or delete up to 1000 entities at once',
    description:
      '`action` says what happens to every entity of `ids` (1 to 1000 entities of the group; ' +
      'an id given twice counts once), with its one argument: `move` takes `parentId` (an ' +
      'entity of the group, or null for the top level; it may be none of `ids` nor inside one ' +
      'of them), `addTags` and `removeTags` take `tagIds` (tags of the group), `setFields` ' +
      'takes `fields` (the attributes to set, at least one, validated as in the update body); ' +
      '`archive`, `unarchive` and `delete` take none. A delete does what deleting each one ' +
      'does: what was inside a deleted entity moves to the top level. All or nothing: when ' +
      'one of `ids` is not an entity of the group (`fields.ids` lists every such id), or an ' +
      'argument is wrong, nothing changes. `updated` counts the entities that changed: one ' +
      'that already is as the action would make it (already archived, already tagged, the ' +
      'same parent or values) is left alone and not counted. The group hears one ' +
      '`entity.mutation` when anything changed.',
  })
  @ApiOkResponse({ type: BulkEntityChangeResultDto })
  @ApiErrors(422)
  bulkChangeEntities(
    @CurrentUser() user: AuthUser,
    @Body() dto: BulkEntityChangeDto,
  ): Promise<BulkEntityChangeResultDto> {
    return this.bulk.apply(user, dto);
  }

  @Post('import')
  @HttpCode(204)
  @UseInterceptors(UploadErrorsInterceptor, FileInterceptor(IMPORT_FILE_FIELD))
  @ApiOperation({
    summary: 'Import entities from a Homebox CSV file, all or nothing',
    description:
      'The multipart field `csv` holds a comma- or tab-separated file whose header names ' +
      '`HB.*` columns (Homebox’s CSV format, with its aliases `HB.labels`, `HB.purchase_time` ' +
      'and `HB.sold_time`; `HB.field.<name>` columns become text custom fields). Every row ' +
      'needs `HB.name` and `HB.location` (`A / B / C`): locations are matched by their name ' +
      'path and made when missing. A row describes a location itself when its `HB.url` is an ' +
      'exported location’s (`…/location/<id>`) or its location path and name is a path other ' +
      'rows name; a top-level location leaves `HB.location` empty, as does any exported row ' +
      '(one with an `HB.url`) of an entity at the top level. Tags ' +
      'are matched by name at any level and made at the top level when missing. A row whose ' +
      '`HB.import_ref` an entity of the group has replaces that entity (what the row leaves ' +
      'empty is reset, custom fields replaced, asset id kept unless given); ' +
      '`HB.parent_import_ref` puts the entity inside the one with that ref, in the file or ' +
      'in the group. Dates are YYYY-MM-DD, MM/DD/YYYY, YYYY/MM/DD or RFC 3339; booleans ' +
      'true/false/1/0/t/f; empty cells are empty, 0 or false. The file is checked whole ' +
      'first: if anything is wrong nothing is written and the 422 lists the problems with ' +
      'their line and column.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: [IMPORT_FILE_FIELD],
      properties: { [IMPORT_FILE_FIELD]: { type: 'string', format: 'binary' } },
    },
  })
  @ApiNoContentResponse({ description: 'Every row imported' })
  @ApiErrors(400, 413)
  @ApiResponse({
    status: 422,
    description:
      'The file has problems (nothing was imported): `problems` lists them with their line, ' +
      'column and reason; or no file was sent (`fields.csv`)',
    type: FileProblemsResponseDto,
  })
  importEntities(
    @CurrentUser() user: AuthUser,
    @UploadedFile() file: StagedUpload | undefined,
  ): Promise<void> {
    return this.imports.import(user, file);
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

  @Get('export')
  @ApiOperation({
    summary: 'Every entity of the group as CSV, for the import (locations and archived included)',
    description:
      'Columns `HB.purchase_date` … `HB.lifetime_warranty`, then `HB.field.<name>` per custom ' +
      'field name of the group (sorted). Dates `YYYY-MM-DD`, `HB.location` the path from the top ' +
      '(` / `; above a parent item, whose import ref is `HB.parent_import_ref`), tags joined ' +
      'with `; `, `HB.url` a link to the web UI. Streamed; the file is named ' +
      '`homebox-entities_<YYYY-MM-DD_HH-MM-SS>.csv` (UTC).',
  })
  @ApiCsv('The CSV file, a header row and one row per entity')
  async exportEntities(
    @CurrentUser() user: AuthUser,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const download = await this.exports.exportEntities(user, origin(request));
    await sendCsv(response, download, this.logger);
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
  ): Promise<JsonText<EntitySummaryDto>> {
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
  ): Promise<JsonText<AssetPageDto>> {
    return this.entities.findByAssetId(user, assetId, query.page, query.pageSize);
  }
}
