import { Body, Get, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { CurrentUser } from '../../identity/auth/decorators/current-user.decorator.js';
import { AccountsService } from '../../identity/accounts/accounts.service.js';
import { CheckoutsService } from '../../inventory/checkouts/checkouts.service.js';
import { CreateCheckoutDto } from '../../inventory/checkouts/dto/create-checkout.dto.js';
import {
  CHECKOUT_SORTS,
  type CheckoutSort,
} from '../../inventory/checkouts/dto/list-checkouts.query.dto.js';
import { ReturnCheckoutDto } from '../../inventory/checkouts/dto/return-checkout.dto.js';
import { readAssetId } from '../../inventory/entities/core/asset-id.js';
import { readLabelLink } from '../../inventory/entities/core/label-link.js';
import type { EntityChildSummaryDto } from '../../inventory/entities/views/dto/entity-summary.dto.js';
import { EntityViewsService } from '../../inventory/entities/views/entity-views.service.js';
import { UuidParam } from '../../platform/http/validation/uuid-param.decorator.js';
import { Page } from '../pages/page.decorator.js';
import { CONSOLE_PATHS, whereIs, withQuery } from './console-layout.js';
import { ConsoleFrames } from './console-frames.service.js';
import { checked, formValues, numberField, textField } from './console-forms.js';
import { deskPage, DESK_LISTS, itemPage, type DeskList } from './desk.views.js';

/** Rows of a desk list on one page. */
const DESK_PAGE_SIZE = 25;
/** Entities a search shows at most. */
const FOUND_AT_MOST = 20;

/** A page number from the query: 1 unless it names a page from 1 to 10,000. */
export const pageNumber = (value: unknown): number => {
  const page = typeof value === 'string' ? Number.parseInt(value, 10) : NaN;
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
};

const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

/**
 * The check-out desk (`/console`): find an item by asset id, a label's link (typed, pasted, from a
 * scanner acting as a keyboard, or the camera), or words; lend it to a member or a named borrower,
 * take it back; and the group's lists of what is out, overdue and due within a week. Everything
 * goes through the same services as the API (`CheckoutsService`), with the same rules and roles.
 */
@Page('console')
export class DeskController {
  constructor(
    private readonly frames: ConsoleFrames,
    private readonly views: EntityViewsService,
    private readonly checkouts: CheckoutsService,
    private readonly accounts: AccountsService,
  ) {}

  @Get()
  async desk(
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) response: Response,
    @Query() query: Record<string, unknown>,
  ): Promise<string | undefined> {
    const find = typeof query.find === 'string' ? query.find.trim() : '';
    let found: EntityChildSummaryDto[] | undefined;
    if (find !== '') {
      found = await this.find(user, find);
      if (found.length === 1) {
        response.redirect(303, CONSOLE_PATHS.item(found[0].id));
        return undefined;
      }
    }
    const list = oneOf(query.list, Object.keys(DESK_LISTS) as DeskList[], 'out');
    const sort = oneOf<CheckoutSort>(query.sort, CHECKOUT_SORTS, 'due');
    const order = oneOf(query.order, ['asc', 'desc'] as const, 'asc');
    const page = pageNumber(query.page);
    const [frame, checkouts] = await Promise.all([
      this.frames.of(user),
      this.checkouts.list(user, {
        ...(list === 'soon' ? { dueWithin: 7 } : { status: list }),
        sort,
        order,
        page,
        pageSize: DESK_PAGE_SIZE,
      }),
    ]);
    return deskPage(frame, {
      find,
      found,
      list,
      sort,
      order,
      page: checkouts,
      done: typeof query.done === 'string' ? query.done : undefined,
    });
  }

  @Get('items/:id')
  async item(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Query('done') done?: string,
  ): Promise<string> {
    const summary = (await this.views.get(user, id)).value();
    const [frame, checkouts, members, path] = await Promise.all([
      this.frames.of(user),
      this.checkouts.listForEntity(user, id),
      this.accounts.listMembers(user),
      this.views.path(user, id),
    ]);
    const out = checkouts.reduce((sum, checkout) => sum + checkout.outstanding, 0);
    return itemPage(frame, {
      entity: {
        id: summary.id,
        name: summary.name,
        assetId: summary.assetId,
        quantity: summary.quantity,
        location: whereIs(summary.id, path),
        tags: summary.tags.map((tag) => tag.name),
      },
      available: Math.max(0, summary.quantity - out),
      checkouts,
      members: members
        .filter((member) => !member.disabled)
        .map((member) => ({ id: member.id, name: member.name })),
      done,
    });
  }

  @Post('items/:id/checkouts')
  async checkOut(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<void> {
    const form = formValues(body);
    const memberId = textField(form, 'memberId');
    const dto = await checked(CreateCheckoutDto, {
      quantity: numberField(form, 'quantity'),
      ...(memberId ? { memberId } : { borrower: textField(form, 'borrower') }),
      dueOn: textField(form, 'dueOn'),
      notes: textField(form, 'notes') ?? '',
    });
    const checkout = await this.checkouts.checkOut(user, id, dto);
    const to = checkout.member?.name ?? checkout.borrower ?? '';
    const done = `Checked out ${checkout.quantity} to ${to}${checkout.dueOn ? `, due ${checkout.dueOn}` : ''}.`;
    response.redirect(303, withQuery(CONSOLE_PATHS.item(id), { done }));
  }

  @Post('items/:id/checkouts/:checkoutId/return')
  async returnCheckout(
    @CurrentUser() user: AuthUser,
    @UuidParam('id') id: string,
    @UuidParam('checkoutId') checkoutId: string,
    @Res({ passthrough: true }) response: Response,
    @Body() body: unknown,
  ): Promise<void> {
    const form = formValues(body);
    const dto = await checked(ReturnCheckoutDto, {
      quantity: numberField(form, 'quantity'),
      notes: textField(form, 'notes'),
    });
    const checkout = await this.checkouts.returnCheckout(user, id, checkoutId, dto);
    const done =
      checkout.status === 'returned'
        ? 'Returned: all of it is back.'
        : `Returned part: ${checkout.outstanding} still out.`;
    response.redirect(303, withQuery(CONSOLE_PATHS.item(id), { done }));
  }

  /** The entities a desk search names: one by its label or asset id, or those the words find. */
  private async find(user: AuthUser, text: string): Promise<EntityChildSummaryDto[]> {
    const label = readLabelLink(text);
    if (label?.kind === 'item' || label?.kind === 'location') {
      return [(await this.views.get(user, label.id)).value()];
    }
    const assetText = label?.kind === 'asset' ? label.assetId : text;
    const assetId = readAssetId(assetText);
    if (assetId.problem === undefined && assetId.value !== 0n && /\d/.test(assetText)) {
      const page = (await this.views.findByAssetId(user, assetText, 1, FOUND_AT_MOST)).value();
      if (page.items.length > 0 || label !== undefined) return page.items;
    }
    const page = (
      await this.views.list(user, { q: text, page: 1, pageSize: FOUND_AT_MOST })
    ).value();
    return page.items;
  }
}
