import { attributionSettings } from '../../../platform/database/change-attribution.js';
import { MAX_HIERARCHY_DEPTH, ancestors } from '../../../platform/database/hierarchy.sql.js';
import { nameOrder } from '../../../platform/database/name-order.js';

/**
 * Inserts an entity of group `$1` with the next asset id of the group and its tags `$2`, in one
 * statement, if its type `$3` (null: the group's oldest item type), parent `$4` (null: none)
 * and tags are all of the group; no row when one is not. `columns` and `placeholders` are the
 * further columns and their parameters (`, "name"` and `, $9`, ...).
 *
 * The statement is a whole unit of work when run by itself: it sets who makes the change and
 * through which operation (`$5`, `$6`, read by the history triggers at its end; see
 * change-attribution.ts), and sends the change notice `pg_notify($7, $8)` when it stores the
 * entity (delivered at commit). So a create locks its group's row (`entity_next_asset_id`) for
 * the statement only, not for a round trip to a COMMIT.
 */
export const insertEntity = (columns: string, placeholders: string): string => `WITH attributed AS (
         SELECT ${attributionSettings('$5', '$6')}
       ), created AS (
         INSERT INTO entities (group_id, asset_id, entity_type_id${columns})
         SELECT $1, entity_next_asset_id($1), t.id${placeholders}
         FROM entity_types t, attributed
         WHERE t.group_id = $1 AND attributed.actor IS NOT NULL
           AND t.id = coalesce($3::uuid, (SELECT d.id FROM entity_types d
                                          WHERE d.group_id = $1 AND NOT d.is_location
                                          ORDER BY d.created_at, d.id LIMIT 1))
           AND ($4::uuid IS NULL OR EXISTS (SELECT 1 FROM entities p WHERE p.id = $4 AND p.group_id = $1))
           AND (SELECT count(*) FROM tags g WHERE g.id = ANY($2::uuid[]) AND g.group_id = $1)
               = cardinality($2::uuid[])
         RETURNING id, asset_id, created_at
       ), tagged AS (
         INSERT INTO entity_tags (entity_id, tag_id)
         SELECT created.id, tag FROM created, unnest($2::uuid[]) AS tag
       )
       SELECT id, asset_id, created_at, pg_notify($7, $8) FROM created`;

/** The ids of the entities of group `$1` with asset id `$2`, by name. */
export const IDS_BY_ASSET_ID = `SELECT e.id FROM entities e WHERE e.group_id = $1 AND e.asset_id = $2
  ORDER BY ${nameOrder('e')}`;

/** Entity `$1` of group `$2` and its ancestors with their kind, from the top down. */
export const PATH = `WITH RECURSIVE
  start AS (SELECT id, parent_id FROM entities WHERE id = $1 AND group_id = $2),
  ${ancestors('up', 'entities', 'start', '$2')}
  SELECT up.id, e.name, t.is_location FROM up
  JOIN entities e ON e.id = up.id JOIN entity_types t ON t.id = e.entity_type_id
  ORDER BY up.depth DESC`;

/** The entities of group `$1` with their parent and kind. */
export const TREE_ROWS = `SELECT e.id, e.name, e.parent_id, t.is_location FROM entities e
  JOIN entity_types t ON t.id = e.entity_type_id
  WHERE e.group_id = $1`;

/**
 * The locations of group `$1` with their parent: read through the index of their types, so
 * never a row of an item, however many items the group has.
 */
export const LOCATION_TREE_ROWS = `SELECT e.id, e.name, e.parent_id, true AS is_location FROM entities e
  WHERE e.entity_type_id = ANY(ARRAY(SELECT t.id FROM entity_types t WHERE t.group_id = $1 AND t.is_location))
    AND e.group_id = $1`;

/**
 * The version of group `$1`'s tree of locations (`location_versions.tree`): it grows with every
 * committed change of the tree; 0 before the first.
 */
export const LOCATION_TREE_VERSION = `SELECT coalesce(max(v.tree), 0)::text AS version
  FROM location_versions v WHERE v.group_id = $1`;

/** Distinct custom-field names of the entities of group `$1`. */
export const FIELD_NAMES = `SELECT DISTINCT f.name FROM entity_fields f JOIN entities e ON e.id = f.entity_id
  WHERE e.group_id = $1 ORDER BY f.name`;

/** Distinct non-empty text values of the custom field `$2` of the entities of group `$1`. */
export const FIELD_VALUES = `SELECT DISTINCT f.text_value AS value FROM entity_fields f
  JOIN entities e ON e.id = f.entity_id
  WHERE e.group_id = $1 AND f.name = $2 AND f.text_value <> '' ORDER BY f.text_value`;

/** Copies the custom fields of entity `$1` to entity `$2`. */
export const COPY_FIELDS = `INSERT INTO entity_fields
    (entity_id, type, name, description, text_value, number_value, boolean_value, time_value, position)
  SELECT $2, type, name, description, text_value, number_value, boolean_value, time_value, position
  FROM entity_fields WHERE entity_id = $1 ORDER BY position, created_at, id`;

/** Entity `$2` of group `$1` itself, or its nearest ancestor whose type is a location. */
export const NEAREST_LOCATION = `WITH RECURSIVE
  start AS (SELECT id, parent_id FROM entities WHERE id = $2 AND group_id = $1),
  ${ancestors('up', 'entities', 'start', '$1')}
  SELECT up.id FROM up
  JOIN entities e ON e.id = up.id JOIN entity_types t ON t.id = e.entity_type_id
  WHERE t.is_location ORDER BY up.depth LIMIT 1`;

/** Adds the tags `$2` to entity `$1`. */
export const ADD_TAGS =
  'INSERT INTO entity_tags (entity_id, tag_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING';

/**
 * Unarchived entities, across all groups, whose warranty (not a lifetime one) ends between days
 * `$1` and `$2` inclusive: what the warranty reminder lists. By group, then end day and name.
 */
export const WARRANTIES_ENDING = `SELECT e.group_id AS "groupId", e.id, e.name,
    to_char(e.warranty_expires, 'YYYY-MM-DD') AS "warrantyExpires"
  FROM entities e
  WHERE e.warranty_expires BETWEEN $1 AND $2 AND NOT e.lifetime_warranty AND NOT e.archived
  ORDER BY e.group_id, e.warranty_expires, lower(e.name COLLATE "C"), e.id`;

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

/**
 * Gives the entities of group `$1` without an asset id (0) the numbers from `$2` on, oldest
 * first (creation time, then id); how many it numbered.
 */
export const NUMBER_MISSING_ASSET_IDS = `WITH missing AS (
    SELECT id, row_number() OVER (ORDER BY created_at, id) AS n
    FROM entities WHERE group_id = $1 AND asset_id = 0
  ), changed AS (
    UPDATE entities e SET asset_id = $2::bigint + missing.n - 1, updated_at = now()
    FROM missing WHERE e.id = missing.id
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM changed`;

/**
 * Gives every entity of group `$1` without an import ref (null or empty) a random one of eight
 * hexadecimal digits; how many it changed.
 */
export const FILL_MISSING_IMPORT_REFS = `WITH changed AS (
    UPDATE entities SET import_ref = left(md5(gen_random_uuid()::text), 8), updated_at = now()
    WHERE group_id = $1 AND (import_ref IS NULL OR import_ref = '')
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM changed`;

/** Dates before this stand for "no date" (Homebox's zero time is 0001-01-01). */
const SENTINEL_BEFORE = `DATE '0100-01-01'`;

/**
 * Clears the purchase, sold and warranty dates of the entities of group `$1` that lie before
 * year 100 (placeholders for "no date"); how many entities it changed.
 */
export const CLEAR_SENTINEL_DATES = `WITH changed AS (
    UPDATE entities SET
      purchase_date = CASE WHEN purchase_date < ${SENTINEL_BEFORE} THEN NULL ELSE purchase_date END,
      sold_date = CASE WHEN sold_date < ${SENTINEL_BEFORE} THEN NULL ELSE sold_date END,
      warranty_expires = CASE WHEN warranty_expires < ${SENTINEL_BEFORE} THEN NULL
                              ELSE warranty_expires END,
      updated_at = now()
    WHERE group_id = $1 AND (purchase_date < ${SENTINEL_BEFORE} OR sold_date < ${SENTINEL_BEFORE}
                             OR warranty_expires < ${SENTINEL_BEFORE})
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM changed`;

/**
 * Deletes every entity of group `$1` (their fields, tags links, attachments and maintenance go
 * with them); how many it deleted.
 */
export const DELETE_ALL_OF_GROUP = `WITH deleted AS (
    DELETE FROM entities WHERE group_id = $1 RETURNING 1
  )
  SELECT count(*)::int AS count FROM deleted`;
