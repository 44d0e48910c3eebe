/** Pieces of SQL that write values as the TypeScript mappers do, for views PostgreSQL builds as JSON. */

/** A timestamp as JavaScript's `toISOString()` writes it (UTC, milliseconds, `Z`). */
export const isoTimestamp = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A date column as `YYYY-MM-DD`, or `""` when unset. */
export const isoDay = (column: string): string => `coalesce(${column}::text, '')`;
