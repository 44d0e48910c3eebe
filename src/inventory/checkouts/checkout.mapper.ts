import type { CheckoutDto, CheckoutPersonDto } from './dto/checkout.dto.js';
import type { CheckoutStatus } from './dto/list-checkouts.query.dto.js';
import type { CheckoutRow } from './checkout.repository.js';

const person = (id: string | null, name: string | null): CheckoutPersonDto | null =>
  id === null ? null : { id, name: name ?? '' };

/** returned once all came back; overdue while some is out past its due day; open otherwise. */
export function checkoutStatus(
  row: Pick<CheckoutRow, 'returnedAt' | 'dueOn'>,
  today: string,
): CheckoutStatus {
  if (row.returnedAt !== null) return 'returned';
  return row.dueOn !== null && row.dueOn < today ? 'overdue' : 'open';
}

/** The view of a check-out as of the day `today` (`YYYY-MM-DD`). */
export const toCheckout = (row: CheckoutRow, today: string): CheckoutDto => ({
  id: row.id,
  entityId: row.entityId,
  entityName: row.entityName,
  quantity: row.quantity,
  returnedQuantity: row.returnedQuantity,
  outstanding: row.quantity - row.returnedQuantity,
  member: person(row.memberId, row.memberName),
  borrower: row.borrower,
  dueOn: row.dueOn,
  notes: row.notes,
  status: checkoutStatus(row, today),
  checkedOutAt: row.createdAt.toISOString(),
  returnedAt: row.returnedAt ? row.returnedAt.toISOString() : null,
  checkedOutBy: person(row.checkedOutById, row.checkedOutByName),
});
