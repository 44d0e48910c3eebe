import { describe, expect, it } from 'vitest';
import { parseTimeValue } from './time-value.js';

describe('parseTimeValue', () => {
  it('reads RFC 3339 timestamps with Z or an offset and optional fractions', () => {
    expect(parseTimeValue('2026-01-31T09:30:00Z')?.toISOString()).toBe('2026-01-31T09:30:00.000Z');
    expect(parseTimeValue('2026-01-31T09:30:00.5+02:00')?.toISOString()).toBe(
      '2026-01-31T07:30:00.500Z',
    );
    expect(parseTimeValue('2024-02-29t23:59:59.123456789z')?.toISOString()).toBe(
      '2024-02-29T23:59:59.123Z',
    );
    expect(parseTimeValue('2026-01-31 09:30:00-05:30')?.toISOString()).toBe(
      '2026-01-31T15:00:00.000Z',
    );
  });

  it('refuses dates alone, other formats and parts out of range', () => {
    for (const text of [
      '2026-01-31',
      '2026-01-31T09:30Z',
      '31/01/2026 09:30:00',
      'yesterday',
      '2026-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-31T24:00:00Z',
      '2026-01-31T23:60:00Z',
      '2026-01-31T23:59:60Z',
      '2026-01-31T09:30:00+24:00',
      '2026-01-31T09:30:00',
    ]) {
      expect({ text, parsed: parseTimeValue(text) }).toEqual({ text, parsed: undefined });
    }
  });
});
