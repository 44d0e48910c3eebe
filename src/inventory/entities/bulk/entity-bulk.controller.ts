import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../../identity/auth/auth-user.js';
import { ApiAuth } from '../../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../../platform/http/api-errors.decorator.js';
import { Idempotent } from '../../../platform/idempotency/idempotency.interceptor.js';
import { BulkEntityChangeDto, BulkEntityChangeResultDto } from './dto/bulk-entity-change.dto.js';
import { EntityBulkService } from './entity-bulk.service.js';

/** One change to many entities at once. */
@ApiTags('entities')
@ApiAuth()
@Controller('entities')
export class EntityBulkController {
  constructor(private readonly bulk: EntityBulkService) {}

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
}
