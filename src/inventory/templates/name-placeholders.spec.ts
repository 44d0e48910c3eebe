import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from './name-placeholders.js';

const now = new Date('2026-03-04T05:06:07.890Z');

describe('fillPlaceholders', () => {
  it('fills {{date}}, {{time}} and {{counter}} with the UTC date, time and the counter', () => {
    expect(fillPlaceholders('Box {{date}} {{time}} #{{counter}}', { now, counter: 42n })).toBe(
      'Box 2026-03-04 05:06 #42',
    );
  });

  it('reads names in any case and with spaces inside the braces, every occurrence', () => {
    expect(
      fillPlaceholders('{{ DATE }}/{{Counter}}/{{counter }}/{{ time}}', { now, counter: 7n }),
    ).toBe('2026-03-04/7/7/05:06');
  });

  it('keeps unknown placeholders, single braces and text without placeholders as they are', () => {
    expect(fillPlaceholders('{{name}} {date} {{ date', { now, counter: 1n })).toBe(
      '{{name}} {date} {{ date',
    );
    expect(fillPlaceholders('Plain', { now, counter: 1n })).toBe('Plain');
  });
});
