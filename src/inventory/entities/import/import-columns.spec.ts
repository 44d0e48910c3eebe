import { describe, expect, it } from 'vitest';
import {
  parseImportBoolean,
  parseImportDate,
  parseImportNumber,
  readHeader,
  readRow,
  splitPath,
} from './import-columns.js';

describe('import columns', () => {
  it('reads dates in the four formats, empty as none, and nothing else', () => {
    expect(parseImportDate('2026-03-05')).toBe('2026-03-05');
    expect(parseImportDate('03/05/2026')).toBe('2026-03-05');
    expect(parseImportDate('2026/3/5')).toBe('2026-03-05');
    expect(parseImportDate('2026-03-05T23:30:00+02:00')).toBe('2026-03-05');
    expect(parseImportDate('')).toBeNull();
    expect(parseImportDate('2026-02-30')).toBeUndefined();
    expect(parseImportDate('5 March 2026')).toBeUndefined();
  });

  it('reads booleans as Go does, in any case', () => {
    expect(['true', 'TRUE', 'tRuE', 't', 'T', '1'].map(parseImportBoolean)).toEqual(
      Array(6).fill(true),
    );
    expect(['false', 'False', 'f', '0', ''].map(parseImportBoolean)).toEqual(Array(5).fill(false));
    expect(parseImportBoolean('yes')).toBeUndefined();
  });

  it('reads decimal numbers only', () => {
    expect(parseImportNumber('')).toBe(0);
    expect(parseImportNumber('12.5')).toBe(12.5);
    expect(parseImportNumber('-1e3')).toBe(-1000);
    expect(parseImportNumber('0x10')).toBeUndefined();
    expect(parseImportNumber('12,5')).toBeUndefined();
    expect(parseImportNumber('Infinity')).toBeUndefined();
  });

  it('splits location paths on slashes, trimmed', () => {
    expect(splitPath(' A /B/  C ')).toEqual(['A', 'B', 'C']);
    expect(splitPath('  ')).toEqual([]);
  });

  it('maps aliases onto their columns and reads a row', () => {
    const { header, problems } = readHeader([
      'HB.name',
      'HB.location',
      'HB.labels',
      'HB.purchase_time',
      'HB.sold_time',
      'HB.field.Colour',
      'HB.whatever',
    ]);
    expect(problems).toEqual([]);
    const { row } = readRow(
      header,
      ['Fan', 'Home / Attic', 'a; b;; a', '2026-01-02', '02/03/2026', 'red', 'x'],
      2,
    );
    expect(row).toMatchObject({
      location: ['Home', 'Attic'],
      tags: ['a', 'b'],
      fields: [{ name: 'Colour', value: 'red' }],
      values: { name: 'Fan', purchaseDate: '2026-01-02', soldDate: '2026-02-03' },
    });
  });
});
