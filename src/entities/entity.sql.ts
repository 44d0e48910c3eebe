import { ancestors } from '../database/hierarchy.sql.js';
import { nameOrder } from '../database/name-order.js';

/**
 * Inserts an entity of group `$1` with the next asset id of the group and its tags `$2`, in one
 * statement, if its type `$3` (null: the group's oldest item type), parent `$4` (null: none)
 * and tags are all of the group; no row when one is not. `columns` and `placeholders` are the
 * further columns and their parameters (`, "name"` and `, $5`, ...).
 */
export const insertEntity = (columns: string, placeholders: string): string => `WITH created AS (
         INSERT INTO entities (group_id, asset_id, entity_type_id${columns})
         SELECT $1, entity_next_asset_id($1), t.id${placeholders}
         FROM entity_types t
         WHERE t.group_id = $1
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

/** The entities of group `$1` (only locations unless `$2`) with their parent and kind. */
export const TREE_ROWS = `SELECT e.id, e.name, e.parent_id, t.is_location FROM entities e
  JOIN entity_types t ON t.id = e.entity_type_id
  WHERE e.group_id = $1 AND ($2 OR t.is_location)`;

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
