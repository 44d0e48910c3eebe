import { Injectable } from '@nestjs/common';
import { Database } from '../../platform/database/database.js';
import { OwnedRepository } from '../../platform/database/owned.js';
import { CheckoutRecord } from './checkout.record.js';
import {
  CHECKOUT_VIEW,
  countGroupCheckouts,
  ENTITY_CHECKOUTS,
  groupCheckoutsPage,
  INSERT_CHECKOUT,
  OUTSTANDING_OF_ENTITY,
  OVERDUE_CHECKOUTS,
  RETURN_CHECKOUT,
  type CheckoutFilter,
} from './checkout.sql.js';
import type { CheckoutSort } from './dto/list-checkouts.query.dto.js';

export type { CheckoutFilter } from './checkout.sql.js';

/** A check-out with the names the view shows. */
export interface CheckoutRow {
  id: string;
  entityId: string;
  entityName: string;
  quantity: number;
  returnedQuantity: number;
  memberId: string | null;
  memberName: string | null;
  borrower: string | null;
  dueOn: string | null;
  notes: string;
  createdAt: Date;
  returnedAt: Date | null;
  checkedOutById: string | null;
  checkedOutByName: string | null;
}

/** What a new check-out stores. */
export interface NewCheckout {
  groupId: string;
  entityId: string;
  quantity: number;
  memberId: string | null;
  borrower: string | null;
  dueOn: string | null;
  notes: string;
  checkedOutBy: string;
}

/** A check-out past its due day and not fully returned, with its group. */
export interface OverdueCheckout {
  groupId: string;
  entityName: string;
  outstanding: number;
  /** The member's or borrower's name; null for a member whose account was deleted. */
  who: string | null;
  dueOn: string;
}

/** The only code that reads or writes the `checkouts` table. */
@Injectable()
export class CheckoutRepository extends OwnedRepository<CheckoutRecord> {
  constructor(db: Database) {
    super(db, CheckoutRecord, 'checkout');
  }

  /** How many of the entity are out (not yet returned) across its check-outs. */
  async outstandingOf(entityId: string): Promise<number> {
    const [row] = await this.db.query<{ outstanding: number }>(OUTSTANDING_OF_ENTITY, [entityId]);
    return row.outstanding;
  }

  async insert(checkout: NewCheckout): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(INSERT_CHECKOUT, [
      checkout.groupId,
      checkout.entityId,
      checkout.quantity,
      checkout.memberId,
      checkout.borrower,
      checkout.dueOn,
      checkout.notes,
      checkout.checkedOutBy,
    ]);
    return row.id;
  }

  /** Takes back `quantity` of a check-out (returned once all of it is back); its notes now `notes`. */
  async takeBack(id: string, quantity: number, notes: string): Promise<void> {
    await this.db.query(RETURN_CHECKOUT, [id, quantity, notes]);
  }

  async findView(groupId: string, id: string): Promise<CheckoutRow | undefined> {
    const [row] = await this.db.query<CheckoutRow>(CHECKOUT_VIEW, [id, groupId]);
    return row;
  }

  /** The check-outs of an entity, newest first. */
  findOfEntity(entityId: string): Promise<CheckoutRow[]> {
    return this.db.query<CheckoutRow>(ENTITY_CHECKOUTS, [entityId]);
  }

  /** A page of the group's check-outs matching the filter, and how many match in all. */
  async findPage(
    filter: CheckoutFilter,
    sort: { by: CheckoutSort; order: 'asc' | 'desc' },
    limit: number,
    offset: number,
  ): Promise<{ total: number; rows: CheckoutRow[] }> {
    const count = countGroupCheckouts(filter);
    const [{ total }] = await this.db.query<{ total: number }>(count.text, count.values);
    const page = groupCheckoutsPage(filter, sort, limit, offset);
    const rows = total > offset ? await this.db.query<CheckoutRow>(page.text, page.values) : [];
    return { total, rows };
  }

  /** Check-outs of every group not fully returned and due before `day` (`YYYY-MM-DD`). */
  findOverdue(day: string): Promise<OverdueCheckout[]> {
    return this.db.query<OverdueCheckout>(OVERDUE_CHECKOUTS, [day]);
  }
}
