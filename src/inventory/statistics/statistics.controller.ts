import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import type { JsonText } from '../../platform/http/json-text.js';
import {
  GroupStatisticsDto,
  TotalsByOrganizerDto,
  ValueOverTimeDto,
} from './dto/statistics.dto.js';
import { StatisticsService } from './statistics.service.js';

/** Under `groups/statistics`: the group routes have no `groups/:id` that this could shadow. */
@ApiTags('statistics')
@ApiAuth()
@Controller('groups/statistics')
export class StatisticsController {
  constructor(private readonly statistics: StatisticsService) {}

  @Get()
  @ApiOperation({ summary: 'Totals of the group: members, items, locations, tags, value' })
  @ApiOkResponse({ type: GroupStatisticsDto })
  getGroupStatistics(@CurrentUser() user: AuthUser): Promise<GroupStatisticsDto> {
    return this.statistics.group(user);
  }

  @Get('purchase-price')
  @ApiOperation({ summary: 'Purchase prices of the items created over a range of days' })
  @ApiQuery({
    name: 'start',
    required: false,
    type: String,
    example: '2026-01-01',
    description: 'YYYY-MM-DD (midnight UTC); default: one month ago',
  })
  @ApiQuery({
    name: 'end',
    required: false,
    type: String,
    example: '2026-02-01',
    description: 'YYYY-MM-DD (midnight UTC); default: now',
  })
  @ApiOkResponse({ type: ValueOverTimeDto })
  @ApiErrors(400)
  getPurchasePriceStatistics(
    @CurrentUser() user: AuthUser,
    @Query('start') start: unknown,
    @Query('end') end: unknown,
  ): Promise<ValueOverTimeDto> {
    return this.statistics.purchasePrice(user, start, end);
  }

  @Get('locations')
  @ApiOperation({
    summary: 'Per location, Σ purchase price of its direct items (only totals above 0)',
    description:
      'The answer carries an ETag that changes with every change of these totals or of the ' +
      "group's locations; a request with that ETag in If-None-Match gets 304 until then.",
  })
  @ApiOkResponse({ type: [TotalsByOrganizerDto] })
  @ApiResponse({ status: 304, description: 'The totals are still the ones of the ETag' })
  getLocationStatistics(@CurrentUser() user: AuthUser): Promise<JsonText<TotalsByOrganizerDto[]>> {
    return this.statistics.locations(user);
  }

  @Get('tags')
  @ApiOperation({ summary: 'Per tag on any entity, Σ purchase price of the entities carrying it' })
  @ApiOkResponse({ type: [TotalsByOrganizerDto] })
  getTagStatistics(@CurrentUser() user: AuthUser): Promise<TotalsByOrganizerDto[]> {
    return this.statistics.tags(user);
  }
}
