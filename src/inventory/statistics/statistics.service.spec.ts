import { BadRequestException } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { parseDay } from './statistics.service.js';

describe('parseDay', () => {
  const fallback = new Date('2026-05-06T07:08:09.010Z');

  it('reads YYYY-MM-DD as midnight UTC', () => {
    expect(parseDay('start', '2024-02-29', fallback).toISOString()).toBe(
      '2024-02-29T00:00:00.000Z',
    );
  });

  it('reads years before 100 as they are written', () => {
    expect(parseDay('start', '0050-01-02', fallback).toISOString()).toBe(
      '0050-01-02T00:00:00.000Z',
    );
  });

  it('takes the fallback when the value is absent or empty', () => {
    expect(parseDay('start', undefined, fallback)).toBe(fallback);
    expect(parseDay('start', '', fallback)).toBe(fallback);
  });

  it.each([
    '2023-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-1-5',
    '26-01-05',
    '2026-01-05T00:00:00Z',
    ' 2026-01-05',
    'yesterday',
    ['2026-01-05'],
    { a: '2026-01-05' },
  ])('refuses %j with a 400 naming the parameter', (value) => {
    expect(() => parseDay('end', value, fallback)).toThrow(
      new BadRequestException('end must be a date as YYYY-MM-DD'),
    );
  });
});
