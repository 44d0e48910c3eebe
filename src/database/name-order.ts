/**
 * The one ordering rule for names, in SQL and in TypeScript: case-insensitive for the letters
 * A to Z, then by Unicode code point, then by id. It depends on no collation or locale, so the
 * embedded server and any external PostgreSQL (whatever its default collation) order alike, and
 * trees sorted in TypeScript agree with lists sorted in SQL.
 */

/** `ORDER BY` terms for the rows of `alias` (with `name` and `id` columns). */
export const nameOrder = (alias: string): string =>
  `lower(${alias}.name COLLATE "C"), ${alias}.name COLLATE "C", ${alias}.id`;

/** Lower-cases A to Z only, as PostgreSQL's `lower()` does under the "C" collation. */
const lowerAscii = (text: string): string => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

/** Compares by code point (UTF-16 code units put U+E000..U+FFFF after the astral planes). */
function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.codePointAt(index)!;
    const y = b.codePointAt(index)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) index++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** `nameOrder` as a comparator. */
export function compareByName<T extends { name: string; id: string }>(a: T, b: T): number {
  return (
    compareCodePoints(lowerAscii(a.name), lowerAscii(b.name)) ||
    compareCodePoints(a.name, b.name) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
