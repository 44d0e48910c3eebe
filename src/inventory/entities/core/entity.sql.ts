import { attributionSettings } from '../../../platform/database/change-attribution.js';
import { ancestors } from '../../../platform/database/hierarchy.sql.js';

/**
 * Inserts an entity of group `$1` with the next asset id of the group and its tags `$2`, in one
 * statement, if its type `$3` (null: the group's oldest item type), parent `$4` (null: none)
 * and tags are all of the group; no row when one is not. `columns` and `placeholders` are the
 * further columns and their parameters (`, "name"` and `, $7`, ...).
 *
 * Run by itself, the statement is a unit of work of its own, and like a unit of work it sets who
 * makes the change and through which operation (`$5`, `$6`, read by the history triggers at its
 * end; see change-attribution.ts). So a create locks its group's row (`entity_next_asset_id`) for
 * the statement only, not for round trips to a BEGIN and a COMMIT.
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
       SELECT id, asset_id, created_at FROM created`;

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

/** Copies the custom fields of entity `$1` to entity `$2`. */
export const COPY_FIELDS = `INSERT INTO entity_fields
    (entity_id, type, name, description, text_value, number_value, boolean_value, time_value, position)
  SELECT $2, type, name, description, text_value, number_value, boolean_value, time_value, position
  FROM entity_fields WHERE entity_id = $1 ORDER BY position, created_at, id`;

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
