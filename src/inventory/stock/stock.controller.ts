import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Logger,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ApiAuth } from '../../identity/auth/decorators/api-auth.decorator.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { sendCsv } from '../../platform/http/csv-download.js';
import { ApiErrors } from '../../platform/http/api-errors.decorator.js';
import { ApiUuidParam, UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { Idempotent } from '../../platform/idempotency/idempotency.interceptor.js';
import { CreateStockAdjustmentDto } from './dto/create-stock-adjustment.dto.js';
import { EntityStockDto } from './dto/entity-stock.dto.js';
import { StockAdjustmentDto } from './dto/stock-adjustment.dto.js';
import { ListExpiringQueryDto } from './dto/list-expiring.query.dto.js';
import { ExpiringItemDto, LowStockItemDto } from './dto/stock-listing.dto.js';
import { UpdateEntityStockDto } from './dto/update-entity-stock.dto.js';
import { StockService } from './stock.service.js';

/** The stock settings of one entity, under the entity's path. */
@ApiTags('stock')
@ApiAuth()
@Controller('entities')
export class EntityStockController {
  constructor(private readonly stock: StockService) {}

  @Get(':id/stock')
  @ApiOperation({
    summary: 'Stock settings of an entity',
    description: 'An entity without settings answers nulls and notes "".',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiOkResponse({ type: EntityStockDto })
  @ApiErrors(400, 404)
  getEntityStock(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
  ): Promise<EntityStockDto> {
    return this.stock.get(user, id);
  }

  @Put(':id/stock')
  @ApiOperation({
    summary: 'Replace the stock settings of an entity',
    description:
      'A full replacement: what is omitted or null is cleared (numbers and day to null, notes ' +
      'to ""). Setting a minimum the quantity is already at or below alerts the group.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiOkResponse({ type: EntityStockDto })
  @ApiErrors(400, 404, 422)
  updateEntityStock(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: UpdateEntityStockDto,
  ): Promise<EntityStockDto> {
    return this.stock.replace(user, id, dto);
  }

  @Post(':id/stock/adjustments')
  @Idempotent()
  @ApiOperation({
    summary: 'Adjust the quantity of an entity, with a reason',
    description:
      'Sets the quantity (`quantity`) or changes it by `change` (negative: taken away), exactly ' +
      'one of them, never below 0, and keeps the reason: the entity’s history records the ' +
      'quantity’s change and the adjustment (`stock.adjustments.<id>`: quantity before and ' +
      'after, reason) as one entry. Bringing the quantity to or below the minimum alerts the ' +
      'group, as any change of it does.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiCreatedResponse({ type: StockAdjustmentDto })
  @ApiErrors(400, 404, 422)
  adjustEntityStock(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Body() dto: CreateStockAdjustmentDto,
  ): Promise<StockAdjustmentDto> {
    return this.stock.adjust(user, id, dto);
  }

  @Delete(':id/stock')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Clear the stock settings of an entity',
    description: 'Also when it has none.',
  })
  @ApiUuidParam('id', 'Entity id')
  @ApiNoContentResponse()
  @ApiErrors(400, 404)
  deleteEntityStock(@CurrentUser() user: AuthUser, @UuidParam('id') id: string): Promise<void> {
    return this.stock.remove(user, id);
  }
}

/** The group's stock listings. */
@ApiTags('stock')
@ApiAuth()
@Controller('stock')
export class StockController {
  private readonly logger = new Logger('StockController');

  constructor(private readonly stock: StockService) {}

  @Get('low')
  @ApiOperation({
    summary: 'Entities at or below their minimum quantity',
    description:
      'Entities of the group that are not archived, have a minimum and a quantity at or below ' +
      'it, with where they are and how many to buy; by location path, then name. With ' +
      '`Accept: text/csv`, a shopping list as `low-stock.csv`: `Name, Asset ID, Location, ' +
      'Quantity, Minimum, Reorder`, the location being the names joined by ` / `.',
  })
  @ApiExtraModels(LowStockItemDto)
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description: 'The entities, as JSON or CSV as asked',
    content: {
      'application/json': {
        schema: { type: 'array', items: { $ref: getSchemaPath(LowStockItemDto) } },
      },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  async listLowStock(
    @CurrentUser() user: AuthUser,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    if (request.accepts(['application/json', 'text/csv']) === 'text/csv') {
      await sendCsv(response, await this.stock.lowCsv(user), this.logger);
      return;
    }
    response.status(200).json(await this.stock.low(user));
  }

  @Get('expiring')
  @ApiOperation({
    summary: 'Entities that expire soon or have expired',
    description:
      'Entities of the group that are not archived and expire on or before today plus `within` ' +
      'days (today in the reminders’ time zone), expired ones included; by expiry day, then name.',
  })
  @ApiOkResponse({ type: [ExpiringItemDto] })
  @ApiErrors(422)
  listExpiringStock(
    @CurrentUser() user: AuthUser,
    @Query() query: ListExpiringQueryDto,
  ): Promise<ExpiringItemDto[]> {
    return this.stock.expiring(user, query.within);
  }
}
