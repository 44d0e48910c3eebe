import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import type { JsonText } from '../../platform/http/json-text.js';
import { Idempotent } from '../../platform/idempotency/idempotency.interceptor.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { EntitySummaryDto } from '../entities/views/dto/entity-summary.dto.js';
import { DuplicateEntityDto } from './dto/duplicate-entity.dto.js';
import { EntityDuplicatesService } from './entity-duplicates.service.js';

/**
 * Copies of an entity: with its tags and stock settings, and as asked its fields, maintenance and
 * attachments; above the modules that keep those, so a copy takes them along.
 */
@ApiTags('entities')
@ApiAuth()
@Controller('entities')
export class EntityDuplicatesController {
  constructor(private readonly duplicates: EntityDuplicatesService) {}

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
}
