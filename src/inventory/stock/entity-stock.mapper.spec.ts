import { describe, expect, it } from 'vitest';
import {
  reorderOf,
  toExpiringItem,
  toLowStockCsvRow,
  toLowStockItem,
  toStockAdjustment,
  toStockedItem,
} from './entity-stock.mapper.js';

describe('reorderOf', () => {
  it('is the reorder quantity when set, even 0', () => {
    expect(reorderOf(1, 3, 12)).toBe(12);
    expect(reorderOf(1, 3, 0)).toBe(0);
  });

  it('otherwise is the fewest whole units that bring the quantity above the minimum', () => {
    expect(reorderOf(3, 3, null)).toBe(1);
    expect(reorderOf(0, 3, null)).toBe(4);
    expect(reorderOf(2.5, 3, null)).toBe(1);
    expect(reorderOf(0, 0, null)).toBe(1);
    expect(reorderOf(-2, 0, null)).toBe(3);
  });
});

describe('stock listing mappers', () => {
  const row = {
    id: 'e1',
    name: 'Coffee',
    assetId: '12',
    quantity: 1,
    location: [
      { id: 'l1', name: 'Kitchen' },
      { id: 'l2', name: 'Pantry' },
    ],
    path: 'Kitchen / Pantry',
  };

  it('builds a low-stock item and its CSV row', () => {
    const item = toLowStockItem({ ...row, minQuantity: 2, reorderQuantity: null });
    expect(item).toEqual({
      id: 'e1',
      name: 'Coffee',
      assetId: '000-012',
      quantity: 1,
      location: row.location,
      minQuantity: 2,
      reorderQuantity: null,
      reorder: 2,
    });
    expect(toLowStockCsvRow(item)).toEqual([
      'Coffee',
      '000-012',
      'Kitchen / Pantry',
      '1',
      '2',
      '2',
    ]);
  });

  it('builds an expiring item, expired when days are left below 0', () => {
    expect(toExpiringItem({ ...row, assetId: '0', expiresOn: '2026-01-01', daysLeft: -1 })).toEqual(
      {
        id: 'e1',
        name: 'Coffee',
        assetId: '',
        quantity: 1,
        location: row.location,
        expiresOn: '2026-01-01',
        expired: true,
        daysLeft: -1,
      },
    );
    expect(toExpiringItem({ ...row, expiresOn: '2026-01-01', daysLeft: 0 }).expired).toBe(false);
  });

  it('builds a stocked item with its settings and whether it is low', () => {
    expect(
      toStockedItem({
        ...row,
        minQuantity: null,
        reorderQuantity: 4,
        expiresOn: '2027-03-31',
        low: false,
      }),
    ).toEqual({
      id: 'e1',
      name: 'Coffee',
      assetId: '000-012',
      quantity: 1,
      location: row.location,
      minQuantity: null,
      reorderQuantity: 4,
      expiresOn: '2027-03-31',
      low: false,
    });
  });

  it('builds an adjustment, its time as ISO text', () => {
    const createdAt = new Date('2026-11-28T10:00:00.000Z');
    expect(
      toStockAdjustment({
        id: 'a1',
        entityId: 'e1',
        quantityBefore: 5,
        quantityAfter: 2.5,
        reason: 'used',
        createdAt,
      }),
    ).toEqual({
      id: 'a1',
      entityId: 'e1',
      quantityBefore: 5,
      quantityAfter: 2.5,
      reason: 'used',
      createdAt: '2026-11-28T10:00:00.000Z',
    });
  });
});
