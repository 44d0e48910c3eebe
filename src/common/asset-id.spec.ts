import { describe, expect, it } from 'vitest';
import { formatAssetId, parseAssetId } from './asset-id.js';

describe('asset ids', () => {
  it('format as Homebox shows them', () => {
    expect(formatAssetId(1)).toBe('000-001');
    expect(formatAssetId('123456')).toBe('123-456');
    expect(formatAssetId(1234567)).toBe('123-4567');
    expect(formatAssetId(0)).toBe('');
    expect(formatAssetId(-5)).toBe('');
  });

  it('parse the ways clients write them', () => {
    expect(parseAssetId('000-123')).toBe(123);
    expect(parseAssetId('#000-123')).toBe(123);
    expect(parseAssetId('"42"')).toBe(42);
    expect(parseAssetId(7)).toBe(7);
    expect(parseAssetId('')).toBe(0);
    expect(parseAssetId(null)).toBe(0);
    expect(parseAssetId('12a')).toBeUndefined();
    expect(parseAssetId(-1)).toBeUndefined();
    expect(parseAssetId(1.5)).toBeUndefined();
  });
});
