import { MAX_HIERARCHY_DEPTH } from '../../../platform/database/hierarchy.sql.js';

/**
 * The first of the asset ids the caller reserves in group `$1`: one above the group's highest
 * and above `$2`, as `numeric` (one above the largest `bigint` is no error until it is used). It
 * locks the group row as `entity_next_asset_id` does, until the unit of work ends, so no other
 * insert takes a number meanwhile.
 */
export const RESERVE_ASSET_IDS = `WITH locked AS (SELECT id FROM groups WHERE id = $1 FOR NO KEY UPDATE)
  SELECT greatest(coalesce(max(e.asset_id), 0), $2::bigint)::numeric + 1 AS first
  FROM locked LEFT JOIN entities e ON e.group_id = locked.id`;

/** The entities of group `$1` whose import ref is among `$2`. */
export const BY_IMPORT_REFS = `SELECT e.id, e.import_ref, e.parent_id FROM entities e
  WHERE e.group_id = $1 AND e.import_ref = ANY($2::varchar[])`;

/** The location entities of group `$1` with their parent, oldest first. */
export const LOCATIONS = `SELECT e.id, e.name, e.parent_id FROM entities e
  JOIN entity_types t ON t.id = e.entity_type_id
  WHERE e.group_id = $1 AND t.is_location ORDER BY e.created_at, e.id`;

/** The columns an import writes, in the order of the arrays the two statements below take. */
export const IMPORTED_COLUMNS: readonly [string, string][] = [
  ['name', 'varchar'],
  ['description', 'varchar'],
  ['notes', 'varchar'],
  ['serial_number', 'varchar'],
  ['model_number', 'varchar'],
  ['manufacturer', 'varchar'],
  ['warranty_details', 'varchar'],
  ['purchase_from', 'varchar'],
  ['sold_to', 'varchar'],
  ['sold_notes', 'varchar'],
  ['purchase_date', 'date'],
  ['warranty_expires', 'date'],
  ['sold_date', 'date'],
  ['insured', 'boolean'],
  ['archived', 'boolean'],
  ['lifetime_warranty', 'boolean'],
  ['quantity', 'double precision'],
  ['purchase_price', 'numeric'],
  ['sold_price', 'numeric'],
  ['import_ref', 'varchar'],
  ['parent_id', 'uuid'],
];

const importedList = IMPORTED_COLUMNS.map(([column]) => column).join(', ');
const importedArrays = (first: number): string =>
  IMPORTED_COLUMNS.map(([, type], index) => `$${first + index}::${type}[]`).join(', ');

/**
 * Inserts entities of group `$1`: ids `$2`, types `$3`, asset ids `$4`, then one array per
 * IMPORTED_COLUMNS column, all of the same length.
 */
export const INSERT_IMPORTED = `INSERT INTO entities (group_id, id, entity_type_id, asset_id, ${importedList})
  SELECT $1, * FROM unnest($2::uuid[], $3::uuid[], $4::bigint[], ${importedArrays(5)})`;

/**
 * Replaces the editable state of entities of group `$1`: ids `$2`, asset ids `$3` (null keeps
 * the current one), then one array per IMPORTED_COLUMNS column. The type is kept, and so is the
 * import ref when none is given.
 */
export const UPDATE_IMPORTED = `UPDATE entities e SET
    asset_id = coalesce(v.asset_id, e.asset_id), updated_at = now(),
    ${IMPORTED_COLUMNS.map(([column]) => `${column} = ${column === 'import_ref' ? 'coalesce(v.import_ref, e.import_ref)' : `v.${column}`}`).join(', ')}
  FROM unnest($2::uuid[], $3::bigint[], ${importedArrays(4)})
    AS v(id, asset_id, ${importedList})
  WHERE e.id = v.id AND e.group_id = $1`;

/** Replaces the tags of entities `$1` by the pairs (entity `$2[i]`, tag `$3[i]`). */
export const DELETE_TAGS_OF = 'DELETE FROM entity_tags WHERE entity_id = ANY($1::uuid[])';
export const INSERT_TAG_PAIRS = `INSERT INTO entity_tags (entity_id, tag_id)
  SELECT * FROM unnest($1::uuid[], $2::uuid[]) ON CONFLICT DO NOTHING`;

/** Deletes the custom fields of entities `$1`. */
export const DELETE_FIELDS_OF = 'DELETE FROM entity_fields WHERE entity_id = ANY($1::uuid[])';

/** Adds text custom fields: entities `$1`, names `$2`, values `$3`, positions `$4`. */
export const INSERT_TEXT_FIELDS = `INSERT INTO entity_fields (entity_id, type, name, text_value, position)
  SELECT entity_id, 'text', name, text_value, position
  FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::int[])
    AS v(entity_id, name, text_value, position)`;

/** Sets the parent of entities of group `$1`: ids `$2`, parents `$3`. */
export const SET_PARENTS = `UPDATE entities e SET parent_id = v.parent_id, updated_at = now()
  FROM unnest($2::uuid[], $3::uuid[]) AS v(id, parent_id)
  WHERE e.id = v.id AND e.group_id = $1`;

/** Which of the entities `$2` of group `$1` are now among their own ancestors. */
export const IN_CYCLES = `WITH RECURSIVE
  start AS (SELECT id, parent_id FROM entities WHERE id = ANY($2::uuid[]) AND group_id = $1),
  walk(origin, id, parent_id, depth) AS (
    SELECT id, id, parent_id, 0 FROM start
    UNION ALL
    SELECT w.origin, p.id, p.parent_id, w.depth + 1 FROM entities p JOIN walk w ON p.id = w.parent_id
    WHERE p.group_id = $1 AND p.id <> w.origin AND w.depth < ${MAX_HIERARCHY_DEPTH}
  )
  SELECT DISTINCT w.origin AS id FROM walk w WHERE w.parent_id = w.origin`;
