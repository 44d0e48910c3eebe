import { describe, expect, it } from 'vitest';
import { checkoutStatus, toCheckout } from './checkout.mapper.js';
import type { CheckoutRow } from './checkout.repository.js';

const row = (fields: Partial<CheckoutRow> = {}): CheckoutRow => ({
  id: 'checkout-1',
  entityId: 'entity-1',
  entityName: 'Drill',
  quantity: 3,
  returnedQuantity: 1,
  memberId: 'user-2',
  memberName: 'Grace',
  borrower: null,
  dueOn: '2026-11-22',
  notes: 'for the shelves',
  createdAt: new Date('2026-11-01T10:00:00.000Z'),
  returnedAt: null,
  checkedOutById: 'user-1',
  checkedOutByName: 'Ada',
  ...fields,
});

describe('checkoutStatus', () => {
  it('is overdue only while some is out after the due day', () => {
    expect(checkoutStatus(row(), '2026-11-22')).toBe('open');
    expect(checkoutStatus(row(), '2026-11-23')).toBe('overdue');
    expect(checkoutStatus(row({ dueOn: null }), '2999-01-01')).toBe('open');
    expect(checkoutStatus(row({ returnedAt: new Date() }), '2026-11-23')).toBe('returned');
  });
});

describe('toCheckout', () => {
  it('builds the view with the outstanding count and the people named', () => {
    expect(toCheckout(row(), '2026-11-22')).toEqual({
      id: 'checkout-1',
      entityId: 'entity-1',
      entityName: 'Drill',
      quantity: 3,
      returnedQuantity: 1,
      outstanding: 2,
      member: { id: 'user-2', name: 'Grace' },
      borrower: null,
      dueOn: '2026-11-22',
      notes: 'for the shelves',
      status: 'open',
      checkedOutAt: '2026-11-01T10:00:00.000Z',
      returnedAt: null,
      checkedOutBy: { id: 'user-1', name: 'Ada' },
    });
    expect(
      toCheckout(
        row({
          memberId: null,
          memberName: null,
          borrower: 'Grace (next door)',
          checkedOutById: null,
          checkedOutByName: null,
          returnedQuantity: 3,
          returnedAt: new Date('2026-11-05T09:00:00.000Z'),
        }),
        '2026-11-22',
      ),
    ).toMatchObject({
      member: null,
      borrower: 'Grace (next door)',
      outstanding: 0,
      status: 'returned',
      returnedAt: '2026-11-05T09:00:00.000Z',
      checkedOutBy: null,
    });
  });
});
