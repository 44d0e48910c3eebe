import { Body, Get, Logger, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { EntityViewsService } from '../../inventory/entities/views/entity-views.service.js';
import { CreateStockAdjustmentDto } from '../../inventory/stock/dto/create-stock-adjustment.dto.js';
import {
  DEFAULT_EXPIRY_WINDOW_DAYS,
  ListExpiringQueryDto,
} from '../../inventory/stock/dto/list-expiring.query.dto.js';
import { StockService } from '../../inventory/stock/stock.service.js';
import { sendCsv } from '../../platform/http/csv-download.js';
import { UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { Page } from '../pages/page.decorator.js';
import { ConsoleFrames } from './console-frames.service.js';
import { whereIs, withQuery } from './console-layout.js';
import { checked, formValues, numberField, textField } from './console-forms.js';
import { pageNumber } from './desk.controller.js';
import {
  STOCK_LISTS,
  STOCK_PATHS,
  stockItemPage,
  stockPage,
  type StockList,
  type StockListView,
} from './stock.views.js';

/** Rows of a stock list on one page. */
const STOCK_PAGE_SIZE = 25;

/**
 * The stock page (`/console/stock`): the group's stocked items, those at or below their minimum
 * (the shopping list, also as a CSV download) and what expires within a chosen number of days or
 * has expired; and an item's stock, with a form to adjust its level with a reason. Everything goes
 * through `StockService`, as the API's stock routes do.
 */
@Page('console/stock')
export class StockPagesController {
  private readonly logger = new Logger('StockPages');

  constructor(
    private readonly frames: ConsoleFrames,
    private readonly stock: StockService,
    private readonly views: EntityViewsService,
  ) {}

  @Get()
  async lists(
    @CurrentUser() user: AuthUser,
    @Query() query: Record<string, unknown>,
  ): Promise<string> {
    const list: StockList = Object.keys(STOCK_LISTS).includes(query.list as string)
      ? (query.list as StockList)
      : 'stocked';
    const page = pageNumber(query.page);
    const [frame, view] = await Promise.all([
      this.frames.of(user),
      this.list(user, list, page, query),
    ]);
    return stockPage(frame, view, typeof query.done === 'string' ? query.done : undefined);
  }

  /** The shopping list, as the API's `GET /stock/low` sends it with `Accept: text/csv`. */
  @Get('shopping-list.csv')
  async shoppingList(@CurrentUser() user: AuthUser, @Res() response: Response): Promise<void> {
    await sendCsv(response, await this.stock.lowCsv(user), this.logger);
  }

  @Get('items/:id')
  async item(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Query('done') done?: string,
  ): Promise<string> {
    const summary = (await this.views.get(user, id)).value();
    const [frame, stock, path] = await Promise.all([
      this.frames.of(user),
      this.stock.get(user, id),
      this.views.path(user, id),
    ]);
    return stockItemPage(frame, {
      entity: {
        id: summary.id,
        name: summary.name,
        assetId: summary.assetId,
        quantity: summary.quantity,
        location: whereIs(summary.id, path) ?? '—',
      },
      stock,
      done,
    });
  }

  @Post('items/:id/adjustments')
  async adjust(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<void> {
    const form = formValues(body);
    const dto = await checked(CreateStockAdjustmentDto, {
      quantity: numberField(form, 'quantity'),
      change: numberField(form, 'change'),
      reason: textField(form, 'reason'),
    });
    const adjustment = await this.stock.adjust(user, id, dto);
    const { minQuantity } = await this.stock.get(user, id);
    const low =
      minQuantity !== null && adjustment.quantityAfter <= minQuantity
        ? ` At or below its minimum (${minQuantity}): on the shopping list.`
        : '';
    const done = `Adjusted from ${adjustment.quantityBefore} to ${adjustment.quantityAfter}: ${adjustment.reason}.${low}`;
    response.redirect(303, withQuery(STOCK_PATHS.item(id), { done }));
  }

  /** The page of the list asked for; the expiry window as the API checks it (422 naming it). */
  private async list(
    user: AuthUser,
    list: StockList,
    page: number,
    query: Record<string, unknown>,
  ): Promise<StockListView> {
    switch (list) {
      case 'stocked':
        return { list, page: await this.stock.stocked(user, page, STOCK_PAGE_SIZE) };
      case 'low':
        return { list, page: await this.stock.lowPage(user, page, STOCK_PAGE_SIZE) };
      case 'expiring': {
        const { within = DEFAULT_EXPIRY_WINDOW_DAYS } = await checked(ListExpiringQueryDto, {
          within: query.within === '' ? undefined : query.within,
        });
        return {
          list,
          within,
          page: await this.stock.expiringPage(user, within, page, STOCK_PAGE_SIZE),
        };
      }
    }
  }
}
