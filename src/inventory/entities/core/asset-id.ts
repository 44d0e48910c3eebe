/**
 * Asset ids are whole numbers per group, kept as PostgreSQL's `bigint` (Homebox's int64): from 1
 * to 9223372036854775807, 0 for none. They are shown as Homebox writes them, zero-padded to at
 * least six digits with a hyphen after the third (`1` → `000-001`, `1234567` → `123-4567`,
 * `9007199254740991` → `900-7199254740991`), and held as `bigint` or decimal text in between,
 * never as a JavaScript number, so every one of them is kept exactly.
 */

/** The largest asset id: PostgreSQL's `bigint` and Homebox's int64. */
export const MAX_ASSET_ID = 9223372036854775807n;

/**
 * An asset id as Homebox shows it (`000-123`, `123-4567`); `""` for none (0 or less). Takes the
 * database's decimal text, a `bigint` or a safe integer.
 */
export function formatAssetId(value: string | bigint | number): string {
  const digits = typeof value === 'string' ? value.trim() : String(value);
  if (!/^\d+$/.test(digits) || /^0*$/.test(digits)) return '';
  const padded = digits.replace(/^0+/, '').padStart(6, '0');
  return `${padded.slice(0, 3)}-${padded.slice(3)}`;
}

/**
 * `formatAssetId` in SQL, for views PostgreSQL writes as JSON: the `bigint` column `column` as
 * text, `""` when it is 0 or less. `lpad` cuts what is longer than its width, so the width is
 * the number's own length when that is more than six.
 */
export const assetIdSql = (column: string): string => `CASE WHEN ${column} > 0 THEN
    overlay(lpad(${column}::text, greatest(6, length(${column}::text)), '0') placing '-' from 4 for 0)
  ELSE '' END`;

/**
 * An asset id read from a client, a file or a backup; `problem` says why it is not one, and
 * `tooLarge` that it is a whole number above `MAX_ASSET_ID`.
 */
export type AssetIdReading =
  { value: bigint; problem?: undefined } | { problem: string; tooLarge: boolean };

/** Longest digit string read (leading zeros included); anything longer is not an asset id. */
const MAX_DIGITS = 64;

/**
 * Reads an asset id as clients write it: a number, or text like `000-123`, `123-4567`, `123`
 * or `#123` (quotes, `#`, spaces and hyphens ignored). Empty, null and absent mean none (0).
 * A JSON number is taken only while it is exact (up to 9007199254740991); larger ones must be
 * sent as text. Anything else, or a number above `MAX_ASSET_ID`, is a problem.
 */
export function readAssetId(value: unknown): AssetIdReading {
  if (value === null || value === undefined) return { value: 0n };
  if (typeof value === 'bigint') return inRange(value, String(value));
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) return notAnAssetId(String(value));
    if (!Number.isSafeInteger(value)) {
      return {
        problem:
          `${value} is too large to be read exactly as a JSON number; send an asset id above ` +
          '9007199254740991 as text, like "900-7199254740993"',
        tooLarge: false,
      };
    }
    return { value: BigInt(value) };
  }
  if (typeof value !== 'string') return notAnAssetId(typeof value);
  const digits = value.replace(/["'#\s-]/g, '');
  if (digits === '') return { value: 0n };
  if (!/^\d+$/.test(digits)) return notAnAssetId(quoted(value));
  if (digits.length > MAX_DIGITS) return tooLarge(quoted(value));
  return inRange(BigInt(digits), quoted(value));
}

/** `readAssetId`'s value, or undefined when it is not an asset id. */
export function parseAssetId(value: unknown): bigint | undefined {
  const reading = readAssetId(value);
  return reading.problem === undefined ? reading.value : undefined;
}

const inRange = (value: bigint, shown: string): AssetIdReading =>
  value < 0n ? notAnAssetId(shown) : value > MAX_ASSET_ID ? tooLarge(shown) : { value };

const notAnAssetId = (shown: string): AssetIdReading => ({
  problem: `${shown} is not an asset id (like 000-123 or 123)`,
  tooLarge: false,
});

const tooLarge = (shown: string): AssetIdReading => ({
  problem: `${shown} is larger than the largest asset id, 9223372036854775807`,
  tooLarge: true,
});

const quoted = (text: string): string =>
  JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
