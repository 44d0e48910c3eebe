/**
 * Pieces of the statements that read a group's rows for a collection backup and write them back
 * in a restore, shared by the statements of each table beside this file.
 *
 * Reading: a page of rows of group `$1` after the cursor, keyset-ordered, `LIMIT` the last
 * parameter. Timestamps leave as ISO 8601 text with their full precision.
 *
 * Writing: `$1` is a JSON array of rows (`jsonb_to_recordset`), `$2` the restore's id key and `$3`
 * the group. Every id of the backup becomes a UUID made of `md5(key || id)`: the same id always gives the
 * same new id within one restore (so references resolve without a table of them in memory), and
 * a new restore gives new ids.
 */

/** A timestamp column as ISO 8601 text, microseconds included. */
export const isoTimestamp = (column: string): string => `(to_json(${column}) #>> '{}')`;

/**
 * The restored id of backup id `expression` (null stays null): the MD5 of key and id, with the
 * version and variant digits of a random (version 4) UUID, as every id of Trove is.
 */
export const restoredId = (expression: string): string =>
  `overlay(overlay(md5($2::text || ${expression}) placing '4' from 13) placing '8' from 17)::uuid`;

/** The first keyset cursor: below every UUID. */
export const FIRST_UUID = '00000000-0000-0000-0000-000000000000';
