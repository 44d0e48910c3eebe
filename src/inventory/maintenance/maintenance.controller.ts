import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
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
import { CreateMaintenanceEntryDto } from './dto/create-maintenance-entry.dto.js';
import {
  ListEntityMaintenanceQueryDto,
  ListMaintenanceQueryDto,
} from './dto/list-maintenance.query.dto.js';
import {
  MaintenanceEntrySummaryDto,
  MaintenanceEntryWithDetailsDto,
} from './dto/maintenance-entry-summary.dto.js';
import { UpdateMaintenanceEntryDto } from './dto/update-maintenance-entry.dto.js';
import { MaintenanceService } from './maintenance.service.js';

/** The maintenance of one entity, under the entity's path. */
@ApiTags('maintenance')
@ApiAuth()
@Controller('entities')
export class EntityMaintenanceController {
  constructor(private readonly maintenance: MaintenanceService) {}

  @Get(':id/maintenance')
  @ApiOperation({
    summary: 'Maintenance entries of an entity',
    description:
      'scheduled: no completion date or one in the future, by scheduled date; completed: a ' +
      'completion date not in the future, latest first; any other status or none (both): all, ' +
      'by scheduled date then completion date, latest first.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiOkResponse({ type: [MaintenanceEntryWithDetailsDto] })
  @ApiErrors(400, 404)
  listEntityMaintenance(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Query() query: ListEntityMaintenanceQueryDto,
  ): Promise<MaintenanceEntryWithDetailsDto[]> {
    return this.maintenance.listForEntity(user, id, query.status);
  }

  @Post(':id/maintenance')
  @Idempotent()
  @ApiOperation({
    summary: 'Record scheduled or completed maintenance of an entity',
    description: 'At least one of completedDate and scheduledDate must be set.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiCreatedResponse({ type: MaintenanceEntrySummaryDto })
  @ApiErrors(400, 404, 422)
  createMaintenanceEntry(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: CreateMaintenanceEntryDto,
  ): Promise<MaintenanceEntrySummaryDto> {
    return this.maintenance.create(user, id, dto);
  }
}

/** Maintenance entries across the group, and each entry by its own id. */
@ApiTags('maintenance')
@ApiAuth()
@Controller('maintenance')
export class MaintenanceController {
  constructor(private readonly maintenance: MaintenanceService) {}

  @Get()
  @ApiOperation({
    summary: 'Maintenance entries of every entity of the group',
    description:
      'scheduled: no completion date; completed: a completion date; any other status or none ' +
      '(both): all. By scheduled date (unscheduled last), then name.',
  })
  @ApiOkResponse({ type: [MaintenanceEntryWithDetailsDto] })
  listMaintenance(
    @CurrentUser() user: AuthUser,
    @Query() query: ListMaintenanceQueryDto,
  ): Promise<MaintenanceEntryWithDetailsDto[]> {
    return this.maintenance.list(user, query.status);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Replace a maintenance entry',
    description:
      'Same rules as create; what is omitted is reset (dates to none, description to "", cost to 0).',
  })
  @ApiUuidParam('id', 'Maintenance entry id')
  @ApiOkResponse({ type: MaintenanceEntrySummaryDto })
  @ApiErrors(400, 404, 422)
  updateMaintenanceEntry(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: UpdateMaintenanceEntryDto,
  ): Promise<MaintenanceEntrySummaryDto> {
    return this.maintenance.update(user, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a maintenance entry' })
  @ApiUuidParam('id', 'Maintenance entry id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  deleteMaintenanceEntry(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
  ): Promise<void> {
    return this.maintenance.remove(user, id);
  }
}
