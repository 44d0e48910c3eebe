/**
 * The one ordering rule for names, in SQL and in TypeScript: case-insensitive for the letters
 * A to Z, then by Unicode code point, then by id. It depends on no collation or locale, so the
 * embedded server and any external PostgreSQL (whatever its default collation) order alike, and
 * trees sorted in TypeScript agree with lists sorted in SQL.
 */

/** `ORDER BY` terms for the rows of `alias` (with a `name` column and the key column `id`). */
export const nameOrder = (alias: string, id = 'id'): string =>
  `lower(${alias}.name COLLATE "C"), ${alias}.name COLLATE "C", ${alias}.${id}`;

/**
 * A UTF-16 code unit moved so that units compare in code point order: surrogates (which stand
 * for code points above U+FFFF) after U+E000..U+FFFF.
 */
const inCodePointOrder = (unit: number): number =>
  unit >= 0xd800 ? (unit <= 0xdfff ? unit + 0x2000 : unit - 0x800) : unit;

/** A to Z as a to z, as PostgreSQL's `lower()` does under the "C" collation. */
const foldAscii = (unit: number): number => (unit >= 65 && unit <= 90 ? unit + 32 : unit);

/** Compares by code point, with A to Z folded when `fold`; allocates nothing (trees sort a lot). */
function compareText(a: string, b: string, fold: boolean): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    let x = a.charCodeAt(index);
    let y = b.charCodeAt(index);
    if (x === y) continue;
    if (fold) {
      x = foldAscii(x);
      y = foldAscii(y);
      if (x === y) continue;
    }
    return inCodePointOrder(x) < inCodePointOrder(y) ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** `nameOrder` as a comparator. */
export function compareByName<T extends { name: string; id: string }>(a: T, b: T): number {
  return (
    compareText(a.name, b.name, true) ||
    compareText(a.name, b.name, false) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}
