import { describe, expect, it } from 'vitest';
import {
  formatCost,
  toMaintenanceEntry,
  toMaintenanceEntryStored,
  toMaintenanceEntryWithDetails,
} from './maintenance-entry.mapper.js';
import type { MaintenanceEntryRecord } from './maintenance-entry.record.js';

const record = (fields: Partial<MaintenanceEntryRecord> = {}): MaintenanceEntryRecord =>
  Object.assign(
    {
      id: 'entry-1',
      entityId: 'entity-1',
      name: 'Oil change',
      description: 'synthetic',
      date: '2026-01-31',
      scheduledDate: null,
      cost: '12.50',
      createdAt: new Date('2026-01-01T10:00:00.000Z'),
      updatedAt: new Date('2026-01-02T11:00:00.000Z'),
    },
    fields,
  );

describe('formatCost', () => {
  it('writes numeric text without leading or trailing zeros', () => {
    expect(formatCost('12.50')).toBe('12.5');
    expect(formatCost('12.00')).toBe('12');
    expect(formatCost('0')).toBe('0');
    expect(formatCost('0.0000')).toBe('0');
    expect(formatCost('007.0100')).toBe('7.01');
    expect(formatCost('0.05')).toBe('0.05');
    expect(formatCost('1200')).toBe('1200');
    expect(formatCost('-3.10')).toBe('-3.1');
    expect(formatCost('-0.00')).toBe('0');
    expect(formatCost(4.5)).toBe('4.5');
    expect(formatCost('NaN')).toBe('NaN');
  });
});

describe('maintenance entry mappers', () => {
  it('builds the summary view with strings only and "" for unset dates', () => {
    expect(toMaintenanceEntry(record())).toEqual({
      id: 'entry-1',
      completedDate: '2026-01-31',
      scheduledDate: '',
      name: 'Oil change',
      description: 'synthetic',
      cost: '12.5',
    });
  });

  it('adds the entity name and id as itemName and itemID', () => {
    expect(
      toMaintenanceEntryWithDetails(record({ date: null, scheduledDate: '2027-05-01' }), {
        id: 'entity-1',
        name: 'Car',
      }),
    ).toEqual({
      id: 'entry-1',
      completedDate: '',
      scheduledDate: '2027-05-01',
      name: 'Oil change',
      description: 'synthetic',
      cost: '12.5',
      itemName: 'Car',
      itemID: 'entity-1',
    });
  });

  it('builds the stored view in snake_case with a numeric cost and the edges given', () => {
    expect(toMaintenanceEntryStored(record())).toEqual({
      cost: 12.5,
      created_at: '2026-01-01T10:00:00.000Z',
      date: '2026-01-31',
      description: 'synthetic',
      entity_id: 'entity-1',
      id: 'entry-1',
      name: 'Oil change',
      scheduled_date: '',
      updated_at: '2026-01-02T11:00:00.000Z',
      edges: {},
    });
    const edges = { entity: { id: 'entity-1' } } as Parameters<typeof toMaintenanceEntryStored>[1];
    expect(toMaintenanceEntryStored(record({ cost: '0' }), edges)).toMatchObject({
      cost: 0,
      edges: { entity: { id: 'entity-1' } },
    });
  });
});
