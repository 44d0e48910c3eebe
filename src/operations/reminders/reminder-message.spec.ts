import { describe, expect, it } from 'vitest';
import { addDays, dayIn } from '../../platform/calendar/calendar-day.js';
import { expirySections, reminderMessage } from './reminder-message.js';

describe('reminder days', () => {
  it('takes the calendar day of the time zone', () => {
    const instant = new Date('2026-11-22T23:30:00Z');
    expect(dayIn('UTC', instant)).toBe('2026-11-22');
    expect(dayIn('Asia/Kolkata', instant)).toBe('2026-11-23');
    expect(dayIn('America/Los_Angeles', instant)).toBe('2026-11-22');
    expect(dayIn('Pacific/Kiritimati', new Date('2026-12-31T10:00:00Z'))).toBe('2027-01-01');
  });

  it('adds days across months, years and leap days', () => {
    expect(addDays('2026-11-22', 30)).toBe('2026-12-22');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('reminderMessage', () => {
  it('lists the due maintenance, then the ending warranties', () => {
    const message = reminderMessage("Ada's Home", '2026-11-22', {
      due: [
        { entityName: 'Boiler', entryName: 'Annual service' },
        { entityName: 'Car', entryName: 'Tyres' },
      ],
      warranties: [
        { name: 'Kettle', warrantyExpires: '2026-11-22' },
        { name: 'Laptop', warrantyExpires: '2026-12-01' },
      ],
      warrantyDays: 30,
    });
    expect(message).toEqual({
      title: "Ada's Home: reminders for 2026-11-22",
      body: [
        'Maintenance scheduled today:',
        '- Boiler: Annual service',
        '- Car: Tyres',
        '',
        'Warranties ending within 30 days:',
        '- Kettle: today',
        '- Laptop: 2026-12-01',
      ].join('\n'),
    });
  });

  it('leaves out an empty section', () => {
    expect(
      reminderMessage('Home', '2026-11-22', {
        due: [],
        warranties: [{ name: 'Drill', warrantyExpires: '2026-11-30' }],
        warrantyDays: 14,
      }).body,
    ).toBe('Warranties ending within 14 days:\n- Drill: 2026-11-30');
    expect(
      reminderMessage('Home', '2026-11-22', {
        due: [{ entityName: 'Bike', entryName: 'Chain' }],
        warranties: [],
        warrantyDays: 14,
      }).body,
    ).toBe('Maintenance scheduled today:\n- Bike: Chain');
  });

  it('lists overdue check-outs last, with the count when more than one is out', () => {
    const overdue = [
      { entityName: 'Drill', outstanding: 1, who: 'Grace', dueOn: '2026-11-20' },
      { entityName: 'Chairs', outstanding: 4, who: 'Bob', dueOn: '2026-11-21' },
      { entityName: 'Ladder', outstanding: 1, who: null, dueOn: '2026-11-21' },
    ];
    const none = { due: [], warranties: [], warrantyDays: 14 };
    expect(reminderMessage('Home', '2026-11-22', { ...none, overdue }).body).toBe(
      [
        'Overdue check-outs:',
        '- Drill: Grace, due 2026-11-20',
        '- Chairs ×4: Bob, due 2026-11-21',
        '- Ladder: a former member, due 2026-11-21',
      ].join('\n'),
    );
    expect(
      reminderMessage('Home', '2026-11-22', {
        ...none,
        due: [{ entityName: 'Bike', entryName: 'Chain' }],
        overdue: overdue.slice(0, 1),
      }).body,
    ).toBe(
      'Maintenance scheduled today:\n- Bike: Chain\n\nOverdue check-outs:\n- Drill: Grace, due 2026-11-20',
    );
  });
});

describe('expirySections', () => {
  it('lists what expires from today on, then what has expired, each only when there is some', () => {
    const items = [
      { name: 'Eggs', expiresOn: '2026-11-20' },
      { name: 'Milk', expiresOn: '2026-11-22' },
      { name: 'Cheese', expiresOn: '2026-12-01' },
    ];
    expect(expirySections('2026-11-22', items, 14)).toEqual([
      'Expiring within 14 days:\n- Milk: today\n- Cheese: 2026-12-01',
      'Expired:\n- Eggs: 2026-11-20',
    ]);
    expect(expirySections('2026-11-22', items.slice(0, 1), 14)).toEqual([
      'Expired:\n- Eggs: 2026-11-20',
    ]);
    expect(expirySections('2026-11-22', [], 14)).toEqual([]);
  });

  it('come after the warranties and before the overdue check-outs', () => {
    expect(
      reminderMessage('Home', '2026-11-22', {
        due: [{ entityName: 'Bike', entryName: 'Chain' }],
        warranties: [],
        warrantyDays: 30,
        expiring: [{ name: 'Milk', expiresOn: '2026-11-23' }],
        expiryDays: 7,
      }).body,
    ).toBe(
      'Maintenance scheduled today:\n- Bike: Chain\n\nExpiring within 7 days:\n- Milk: 2026-11-23',
    );
    expect(
      reminderMessage('Home', '2026-11-22', {
        due: [],
        warranties: [{ name: 'Kettle', warrantyExpires: '2026-11-30' }],
        warrantyDays: 30,
        expiring: [{ name: 'Milk', expiresOn: '2026-11-21' }],
        expiryDays: 7,
        overdue: [{ entityName: 'Drill', outstanding: 1, who: 'Grace', dueOn: '2026-11-20' }],
      }).body,
    ).toBe(
      [
        'Warranties ending within 30 days:\n- Kettle: 2026-11-30',
        'Expired:\n- Milk: 2026-11-21',
        'Overdue check-outs:\n- Drill: Grace, due 2026-11-20',
      ].join('\n\n'),
    );
  });
});
