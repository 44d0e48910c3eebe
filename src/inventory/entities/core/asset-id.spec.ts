import { describe, expect, it } from 'vitest';
import { formatAssetId, MAX_ASSET_ID, parseAssetId, readAssetId } from './asset-id.js';

describe('asset ids', () => {
  it('format as Homebox shows them, at any length', () => {
    expect(formatAssetId(1)).toBe('000-001');
    expect(formatAssetId('123456')).toBe('123-456');
    expect(formatAssetId('999999')).toBe('999-999');
    expect(formatAssetId('1000000')).toBe('100-0000');
    expect(formatAssetId(1234567)).toBe('123-4567');
    expect(formatAssetId('9007199254740991')).toBe('900-7199254740991');
    expect(formatAssetId('9007199254740993')).toBe('900-7199254740993');
    expect(formatAssetId(MAX_ASSET_ID)).toBe('922-3372036854775807');
    expect(formatAssetId('0042')).toBe('000-042');
    expect(formatAssetId(0)).toBe('');
    expect(formatAssetId('0')).toBe('');
    expect(formatAssetId(-5)).toBe('');
  });

  it('parse the ways clients write them', () => {
    expect(parseAssetId('000-123')).toBe(123n);
    expect(parseAssetId('#000-123')).toBe(123n);
    expect(parseAssetId('"42"')).toBe(42n);
    expect(parseAssetId('123-4567')).toBe(1234567n);
    expect(parseAssetId('1234567')).toBe(1234567n);
    expect(parseAssetId('900-7199254740993')).toBe(9007199254740993n);
    expect(parseAssetId('922-3372036854775807')).toBe(MAX_ASSET_ID);
    expect(parseAssetId('9223372036854775807')).toBe(MAX_ASSET_ID);
    expect(parseAssetId(7)).toBe(7n);
    expect(parseAssetId(9007199254740991)).toBe(9007199254740991n);
    expect(parseAssetId('')).toBe(0n);
    expect(parseAssetId(null)).toBe(0n);
    expect(parseAssetId('12a')).toBeUndefined();
    expect(parseAssetId(-1)).toBeUndefined();
    expect(parseAssetId(1.5)).toBeUndefined();
    expect(parseAssetId(true)).toBeUndefined();
  });

  it('round-trip every length through the formatter and the parser', () => {
    for (const value of [1n, 999999n, 1000000n, 1234567n, 9007199254740993n, MAX_ASSET_ID]) {
      expect(parseAssetId(formatAssetId(value))).toBe(value);
    }
  });

  it('refuse what a bigint cannot hold and JSON numbers that are not exact, saying why', () => {
    expect(readAssetId('9223372036854775808')).toEqual({
      problem: '"9223372036854775808" is larger than the largest asset id, 9223372036854775807',
      tooLarge: true,
    });
    expect(readAssetId('922-3372036854775808')).toMatchObject({ tooLarge: true });
    expect(readAssetId('1'.repeat(65))).toMatchObject({ tooLarge: true });
    expect(readAssetId(9007199254740992)).toEqual({
      problem:
        '9007199254740992 is too large to be read exactly as a JSON number; send an asset id ' +
        'above 9007199254740991 as text, like "900-7199254740993"',
      tooLarge: false,
    });
    expect(readAssetId('12a')).toEqual({
      problem: '"12a" is not an asset id (like 000-123 or 123)',
      tooLarge: false,
    });
  });
});
