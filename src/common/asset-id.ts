/**
 * Asset ids are whole numbers per group, shown zero-padded to six digits with a hyphen after
 * the third (`1` → `000-001`, `1234567` → `123-4567`); 0 or less means none (`""`).
 */
export function formatAssetId(value: string | number): string {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) return '';
  const digits = String(Math.trunc(number)).padStart(6, '0');
  return `${digits.slice(0, 3)}-${digits.slice(3)}`;
}

/**
 * Reads an asset id as clients write it: a number, or a string like `000-123`, `123` or `#123`
 * (quotes, `#` and hyphens ignored). Empty means none (0). Undefined when it is not a number.
 */
export function parseAssetId(value: unknown): number | undefined {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const digits = value.replace(/["'#\s-]/g, '');
  if (digits === '') return 0;
  if (!/^\d{1,15}$/.test(digits)) return undefined;
  return Number(digits);
}
