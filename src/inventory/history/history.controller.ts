import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { Roles } from '../../identity/auth/decorators/roles.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import type { JsonText } from '../../platform/http/json-text.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { HistoryPageDto } from './dto/history-entry.dto.js';
import { AuditQueryDto, HistoryPageQueryDto } from './dto/history-queries.dto.js';
import { EntityHistoryService } from './entity-history.service.js';

const RECORDED =
  'Every change to an entity (create, update, patch, move, delete, tags, custom fields, ' +
  'attachments, stock, check-outs, bulk changes, import) is recorded in the transaction that ' +
  'makes it: who (user, SSO identity or API key), when, the API operation, and each changed ' +
  'field’s value before and after. The changes of one operation to one entity are one entry.';

/** The change history of one entity, under the entity's path. */
@ApiTags('history')
@ApiAuth()
@Controller('entities')
export class EntityHistoryController {
  constructor(private readonly history: EntityHistoryService) {}

  @Get(':id/history')
  @ApiOperation({
    summary: 'The changes of an entity, newest first (kept after the entity is deleted)',
    description: RECORDED,
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiOkResponse({ type: HistoryPageDto })
  @ApiErrors(400, 404, 422)
  getEntityHistory(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Query() query: HistoryPageQueryDto,
  ): Promise<JsonText<HistoryPageDto>> {
    return this.history.ofEntity(user, id, query);
  }
}

/** The change history of the whole group, for its owners. */
@ApiTags('history')
@ApiAuth()
@Controller('audit')
export class AuditController {
  constructor(private readonly history: EntityHistoryService) {}

  @Get()
  @Roles('owner')
  @ApiOperation({
    summary: 'The changes of the group’s entities, newest first (owners only)',
    description: `${RECORDED} Kept TROVE_AUDIT_RETENTION_DAYS days (365 by default).`,
  })
  @ApiOkResponse({ type: HistoryPageDto })
  @ApiErrors(422)
  listAudit(
    @CurrentUser() user: AuthUser,
    @Query() query: AuditQueryDto,
  ): Promise<JsonText<HistoryPageDto>> {
    return this.history.audit(user, query);
  }
}
