import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { EntityActionResultDto } from './dto/entity-action-result.dto.js';
import { WipeInventoryDto } from './dto/wipe-inventory.dto.js';
import { EntityActionsService } from './entity-actions.service.js';

/** Maintenance actions over all the group's entities (Homebox §19). */
@ApiTags('actions')
@ApiAuth()
@Controller('actions')
export class EntityActionsController {
  constructor(private readonly actions: EntityActionsService) {}

  @Post('ensure-asset-ids')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give every entity without an asset id the group’s next numbers, oldest first',
    description: '`completed` is the number of entities numbered.',
  })
  @ApiOkResponse({ type: EntityActionResultDto })
  ensureAssetIds(@CurrentUser() user: AuthUser): Promise<EntityActionResultDto> {
    return this.actions.ensureAssetIds(user);
  }

  @Post('ensure-import-refs')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give every entity without an import ref a random one of eight characters',
    description: '`completed` is the number of entities changed.',
  })
  @ApiOkResponse({ type: EntityActionResultDto })
  ensureImportRefs(@CurrentUser() user: AuthUser): Promise<EntityActionResultDto> {
    return this.actions.ensureImportRefs(user);
  }

  @Post('zero-item-time-fields')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Clear placeholder purchase, sold and warranty dates (before year 100)',
    description:
      'Homebox also moves these dates to midnight; Trove stores them as calendar dates, which ' +
      'have no time of day, so only the placeholders (such as 0001-01-01) are left to clear. ' +
      '`completed` is the number of entities changed.',
  })
  @ApiOkResponse({ type: EntityActionResultDto })
  zeroItemTimeFields(@CurrentUser() user: AuthUser): Promise<EntityActionResultDto> {
    return this.actions.zeroTimeFields(user);
  }

  @Post('wipe-inventory')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Delete every entity of the group, and its tags when asked (owner; not in demo mode)',
    description:
      'Locations are entities and go too, whatever `wipeLocations` says; attachments, fields ' +
      'and maintenance entries go with their entities. `completed` is the number of rows ' +
      'deleted: entities, plus tags with `wipeTags`, plus maintenance entries with ' +
      '`wipeMaintenance`. The body is optional.',
  })
  @ApiBody({ type: WipeInventoryDto, required: false })
  @ApiOkResponse({ type: EntityActionResultDto })
  @ApiErrors(422)
  wipeInventory(
    @CurrentUser() user: AuthUser,
    @Body() dto: WipeInventoryDto,
  ): Promise<EntityActionResultDto> {
    return this.actions.wipeInventory(user, dto);
  }
}
