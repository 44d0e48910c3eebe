import { BackupFormatError } from '../backup-format.js';

/**
 * One database row of a Homebox export, as its JSON encoder wrote it: UUIDs and text as strings,
 * times as RFC 3339 strings (`time.Time`), booleans as `true`/`false` (or 0/1 from SQLite),
 * numbers as numbers, JSON columns as their value or their text.
 */
export type HomeboxRow = Record<string, unknown>;

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** Text; null and absent are `''`, numbers and booleans their JSON text. */
export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * Text cut to `max` characters (whole code points): for the few columns Homebox leaves unbounded
 * where Trove keeps 255 (where the entity was bought from and sold to, attachment titles).
 */
export function clipped(value: unknown, max: number): string {
  const characters = [...text(value)];
  return characters.length > max ? characters.slice(0, max).join('') : characters.join('');
}

/** A boolean written as `true`/`false`, 0/1 or their text; anything else is false. */
export function bool(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return ['1', 'true', 't'].includes(value.trim().toLowerCase());
  return false;
}

/** A finite number (or its text); `fallback` for none. */
export function number(value: unknown, fallback = 0): number {
  const parsed = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof parsed === 'number' && Number.isFinite(parsed) ? parsed : fallback;
}

/** An exact decimal string of a number, as `numeric` columns take it (`12.5`, `0`). */
export function decimal(value: unknown): string {
  const parsed = number(value);
  const plain = parsed.toString();
  if (!/e/i.test(plain)) return plain;
  // Very large or very small: written out without an exponent, trailing zeros dropped.
  return parsed.toFixed(20).replace(/\.?0+$/, '');
}

/**
 * An asset id as Homebox's database holds it (int64, 0 or less for none) as text, all its
 * digits kept (`parseJsonArray` reads long whole numbers as their text); the restore reads it as
 * any asset id.
 */
export function assetIdText(value: unknown): string {
  const written = text(value).trim();
  return written.startsWith('-') ? '0' : written;
}

/** A whole number as decimal text (`bigint` columns); 0 for none. */
export function integerText(value: unknown): string {
  const parsed = Math.trunc(number(value));
  return Number.isSafeInteger(parsed) ? String(parsed) : '0';
}

/** The row's `id`, required. */
export function idOf(row: HomeboxRow, table: string): string {
  const id = row.id;
  if ((typeof id !== 'string' && typeof id !== 'number') || text(id) === '') {
    throw new BackupFormatError(`${table}.json has a row without an id`);
  }
  return text(id);
}

/** A reference to another row; null for none (null, `''`, the nil UUID). */
export function refOf(value: unknown): string | null {
  const id = text(value);
  return id === '' || id === NIL_UUID ? null : id;
}

const DATE_PREFIX = /^\s*(\d{4})-(\d{2})-(\d{2})/;

/**
 * The calendar date a Homebox time was written for (`2024-05-06T00:00:00-04:00` → `2024-05-06`:
 * the date as written, whatever its offset), or null for none: absent, not a date, or before
 * year 100 (Homebox's zero time is `0001-01-01T00:00:00Z`).
 */
export function calendarDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = DATE_PREFIX.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  date.setUTCFullYear(year);
  if (year < 100 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/**
 * A timestamp as ISO 8601 (`2024-05-06T07:08:09.123Z`), from RFC 3339 with any fraction (Go
 * writes nanoseconds) or SQLite's `2024-05-06 07:08:09+00:00`; the present time when absent or
 * unreadable.
 */
export function timestamp(value: unknown): string {
  if (typeof value === 'string') {
    const normalised = value
      .trim()
      .replace(' ', 'T')
      .replace(/(\.\d{3})\d+/, '$1');
    const time = Date.parse(normalised);
    if (Number.isFinite(time)) return new Date(time).toISOString();
  }
  return new Date().toISOString();
}

/** A list of ids written as a JSON array or as its text; empty for anything else. */
export function list(value: unknown): string[] {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return [];
    }
  }
  return Array.isArray(parsed)
    ? parsed.map((item) => refOf(item)).filter((id): id is string => id !== null)
    : [];
}
