import { ConflictException, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Transactional } from '@nestjs-cls/transactional';
import type { AuthUser } from '../../identity/auth/auth-user.js';
import { ValidationFailedException } from '../../platform/errors/validation-failed.exception.js';
import type { TroveConfig } from '../../platform/config/configuration.js';
import { EntitiesService } from '../entities/core/entities.service.js';
import { ChangeEvents } from '../../platform/change-events/change-events.service.js';
import { GroupsService } from '../../identity/groups/groups.service.js';
import { dayIn } from '../../platform/calendar/calendar-day.js';
import { toCheckout } from './checkout.mapper.js';
import { CheckoutRepository, type OverdueCheckout } from './checkout.repository.js';
import type { CheckoutDto, CheckoutPageDto } from './dto/checkout.dto.js';
import { MAX_CHECKOUT_NOTES, type CreateCheckoutDto } from './dto/create-checkout.dto.js';
import {
  DEFAULT_CHECKOUT_PAGE_SIZE,
  type ListCheckoutsQueryDto,
} from './dto/list-checkouts.query.dto.js';
import type { ReturnCheckoutDto } from './dto/return-checkout.dto.js';
import { notOwned } from '../../platform/database/owned.js';

export type { OverdueCheckout } from './checkout.repository.js';

export const ONE_BORROWER_MESSAGE = 'give exactly one of memberId and borrower';

/**
 * Check-outs: some of an entity's quantity lent to a member of the group or to an outside
 * borrower, and its return in parts. The entity's quantity is what the group owns and never
 * changes here; what is available is that quantity less what its open check-outs have out.
 * "Today" (due days, overdue) is the day in the reminders' time zone.
 */
@Injectable()
export class CheckoutsService {
  constructor(
    private readonly checkouts: CheckoutRepository,
    private readonly entities: EntitiesService,
    private readonly groups: GroupsService,
    private readonly changes: ChangeEvents,
    private readonly config: ConfigService<TroveConfig, true>,
  ) {}

  /**
   * Lends some of an entity of the group. The entity's row stays locked until the check-out is
   * stored, so concurrent check-outs of one entity never lend more than it has.
   */
  @Transactional()
  async checkOut(user: AuthUser, entityId: string, dto: CreateCheckoutDto): Promise<CheckoutDto> {
    const memberId = dto.memberId ?? null;
    const borrower = dto.borrower ?? null;
    if ((memberId === null) === (borrower === null)) {
      throw ValidationFailedException.forField('memberId', ONE_BORROWER_MESSAGE);
    }
    const today = this.today();
    const dueOn = dto.dueOn ?? null;
    if (dueOn !== null && dueOn < today) {
      throw ValidationFailedException.forField('dueOn', `dueOn must be today (${today}) or later`);
    }
    const entity = await this.entities.findOwned(user, entityId, { lock: true });
    if (memberId !== null && !(await this.groups.isMember(user.groupId, memberId))) {
      throw ValidationFailedException.forField(
        'memberId',
        `user ${memberId} is not a member of this group`,
      );
    }
    const quantity = dto.quantity ?? 1;
    const outstanding = await this.checkouts.outstandingOf(entity.id);
    const available = Math.max(0, Math.floor(entity.quantity - outstanding));
    if (quantity > available) {
      throw ValidationFailedException.forField(
        'quantity',
        `quantity must not exceed what is available: ${available} of ${entity.quantity} ` +
          `(${outstanding} checked out)`,
      );
    }
    const id = await this.checkouts.insert({
      groupId: user.groupId,
      entityId: entity.id,
      quantity,
      memberId,
      borrower,
      dueOn,
      notes: dto.notes ?? '',
      checkedOutBy: user.id,
    });
    await this.changes.publish(user.groupId, 'entity.mutation');
    return this.view(user.groupId, id, today);
  }

  /**
   * Takes back some (by default all) of what a check-out of the entity has out; once all is
   * back it is returned. 404 for a check-out of another entity or group, 409 for one already
   * returned, 422 for more than is out.
   */
  @Transactional()
  async returnCheckout(
    user: AuthUser,
    entityId: string,
    checkoutId: string,
    dto: ReturnCheckoutDto,
  ): Promise<CheckoutDto> {
    const entity = await this.entities.findOwned(user, entityId);
    const checkout = await this.checkouts.findOwned(user.groupId, checkoutId, { lock: true });
    if (checkout.entityId !== entity.id) {
      throw notOwned('checkout', checkoutId);
    }
    if (checkout.returnedAt !== null) {
      throw new ConflictException(`checkout ${checkoutId} is already returned`);
    }
    const outstanding = checkout.quantity - checkout.returnedQuantity;
    const quantity = dto.quantity ?? outstanding;
    if (quantity > outstanding) {
      throw ValidationFailedException.forField(
        'quantity',
        `quantity must not exceed what is out: ${outstanding}`,
      );
    }
    const note = dto.notes?.trim() ?? '';
    const notes =
      note === ''
        ? checkout.notes
        : [checkout.notes, `Returned ${this.today()}: ${note}`].filter(Boolean).join('\n');
    if (notes.length > MAX_CHECKOUT_NOTES) {
      throw ValidationFailedException.forField(
        'notes',
        `the check-out's notes with this one would pass ${MAX_CHECKOUT_NOTES} characters`,
      );
    }
    await this.checkouts.takeBack(checkout.id, quantity, notes);
    await this.changes.publish(user.groupId, 'entity.mutation');
    return this.view(user.groupId, checkout.id, this.today());
  }

  /** Every check-out of an entity of the group, newest first (404 for any other entity). */
  async listForEntity(user: AuthUser, entityId: string): Promise<CheckoutDto[]> {
    const entity = await this.entities.findOwned(user, entityId);
    const today = this.today();
    return (await this.checkouts.findOfEntity(entity.id)).map((row) => toCheckout(row, today));
  }

  /** A page of the group's check-outs, in the order asked (by due day, none last), then oldest first. */
  async list(user: AuthUser, query: ListCheckoutsQueryDto): Promise<CheckoutPageDto> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_CHECKOUT_PAGE_SIZE;
    const today = this.today();
    const { total, rows } = await this.checkouts.findPage(
      {
        groupId: user.groupId,
        status: query.status,
        memberId: query.memberId,
        dueWithin: query.dueWithin,
        today,
      },
      { by: query.sort ?? 'due', order: query.order ?? 'asc' },
      pageSize,
      (page - 1) * pageSize,
    );
    return { page, pageSize, total, items: rows.map((row) => toCheckout(row, today)) };
  }

  /** Check-outs of every group not fully returned and due before `day`, by group then due day. */
  overdueOn(day: string): Promise<OverdueCheckout[]> {
    return this.checkouts.findOverdue(day);
  }

  private async view(groupId: string, id: string, today: string): Promise<CheckoutDto> {
    const row = await this.checkouts.findView(groupId, id);
    if (!row) throw notOwned('checkout', id);
    return toCheckout(row, today);
  }

  /** Today in the reminders' time zone, as `YYYY-MM-DD`. */
  private today(): string {
    return dayIn(this.config.get('reminders', { infer: true }).timeZone, new Date());
  }
}
