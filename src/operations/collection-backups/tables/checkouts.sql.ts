import { isoTimestamp, restoredId } from './backup.sql.js';

/**
 * Check-outs of group `$1` after id `$2`, at most `$3` (backup), with the member's name so that
 * a restore where the member is not known can still say who has them.
 */
export const BACKUP_CHECKOUTS = `SELECT c.id, ${isoTimestamp('c.created_at')} AS created_at,
    ${isoTimestamp('c.updated_at')} AS updated_at, c.entity_id, c.quantity, c.returned_quantity,
    c.member_id, m.name AS member_name, c.borrower, c.due_on, c.notes, c.checked_out_by,
    ${isoTimestamp('c.returned_at')} AS returned_at
  FROM checkouts c LEFT JOIN users m ON m.id = c.member_id
  WHERE c.group_id = $1 AND c.id > $2 ORDER BY c.id LIMIT $3`;

/** The user id `column` of a restored row when it is one of the members `$4`, else null. */
const member = (column: string): string =>
  `CASE WHEN ${column} = ANY($4::text[]) THEN ${column}::uuid END`;

/**
 * Restores check-outs (`$1` rows, `$2` id key, `$3` group, checked on the entity, `$4` the
 * importing group's member ids). Users are kept only when they are members of the group; a
 * member who is not becomes the borrower, by the name the backup gives.
 */
export const RESTORE_CHECKOUTS = `INSERT INTO checkouts
    (id, created_at, updated_at, group_id, entity_id, quantity, returned_quantity, member_id,
     borrower, due_on, notes, checked_out_by, returned_at)
  SELECT ${restoredId('r.id')}, COALESCE(r.created_at, now()), COALESCE(r.updated_at, now()),
    e.group_id, e.id, r.quantity, COALESCE(r.returned_quantity, 0), ${member('r.member_id')},
    CASE WHEN ${member('r.member_id')} IS NULL THEN COALESCE(r.borrower, left(r.member_name, 255)) END,
    r.due_on, COALESCE(r.notes, ''), ${member('r.checked_out_by')}, r.returned_at
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, created_at timestamptz, updated_at timestamptz,
    entity_id text, quantity integer, returned_quantity integer, member_id text,
    member_name text, borrower text, due_on date, notes text, checked_out_by text,
    returned_at timestamptz)
  LEFT JOIN entities e ON e.id = ${restoredId('r.entity_id')} AND e.group_id = $3`;
