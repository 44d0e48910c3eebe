/** Pieces of SQL that write values as the TypeScript mappers do, for views PostgreSQL builds as JSON. */

/** A timestamp as JavaScript's `toISOString()` writes it (UTC, milliseconds, `Z`). */
export const isoTimestamp = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A date column as `YYYY-MM-DD`, or `""` when unset. */
export const isoDay = (column: string): string => `coalesce(${column}::text, '')`;

/**
 * A JSON object (of type `json`) with these keys and SQL values, written without spaces, as
 * `JSON.stringify` writes it: the views PostgreSQL writes are sent as they are.
 */
export const jsonObject = (entries: Record<string, string>): string =>
  `(SELECT row_to_json(o) FROM (SELECT ${Object.entries(entries)
    .map(([key, value]) => `${value} AS "${key}"`)
    .join(', ')}) o)`;

/**
 * A JSON array (of type `json`) of `element` over the rows of `from` (`FROM … WHERE …`) in
 * `order`, `[]` when there are none; written without spaces, as `jsonObject`.
 */
export const jsonArray = (element: string, from: string, order: string): string =>
  `(SELECT coalesce('[' || string_agg((${element})::text, ',' ORDER BY ${order}) || ']', '[]')::json ${from})`;
