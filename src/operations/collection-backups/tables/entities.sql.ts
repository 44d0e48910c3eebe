import { isoTimestamp, restoredId } from './backup.sql.js';

/** Entities of group `$1` after id `$2`, at most `$3` (collection backup). */
export const BACKUP_ENTITIES = `SELECT e.id, ${isoTimestamp('e.created_at')} AS created_at,
    ${isoTimestamp('e.updated_at')} AS updated_at, e.entity_type_id, e.parent_id, e.name,
    e.description, e.import_ref, e.notes, e.quantity, e.insured, e.archived,
    e.asset_id::text AS asset_id, e.serial_number, e.model_number, e.manufacturer,
    e.lifetime_warranty, e.warranty_expires, e.warranty_details, e.purchase_date, e.purchase_from,
    e.purchase_price::text AS purchase_price, e.sold_date, e.sold_to,
    e.sold_price::text AS sold_price, e.sold_notes, e.sync_child_entity_locations
  FROM entities e WHERE e.group_id = $1 AND e.id > $2 ORDER BY e.id LIMIT $3`;

/** Custom fields of group `$1`'s entities after id `$2`, at most `$3`. */
export const BACKUP_ENTITY_FIELDS = `SELECT f.id, ${isoTimestamp('f.created_at')} AS created_at,
    ${isoTimestamp('f.updated_at')} AS updated_at, f.entity_id, f.name, f.description, f.type,
    f.text_value, f.number_value::text AS number_value, f.boolean_value,
    ${isoTimestamp('f.time_value')} AS time_value, f.position
  FROM entity_fields f JOIN entities e ON e.id = f.entity_id
  WHERE e.group_id = $1 AND f.id > $2 ORDER BY f.id LIMIT $3`;

/** Tag links of group `$1`'s entities after (entity `$2`, tag `$3`), at most `$4`. */
export const BACKUP_ENTITY_TAGS = `SELECT et.entity_id, et.tag_id
  FROM entity_tags et JOIN entities e ON e.id = et.entity_id
  WHERE e.group_id = $1 AND (et.entity_id, et.tag_id) > ($2::uuid, $3::uuid)
  ORDER BY et.entity_id, et.tag_id LIMIT $4`;

/**
 * Restores entities (`$1` rows, `$2` id key, `$3` group) without parents (RESTORE_ENTITY_PARENTS);
 * the entity type must be one of the group's.
 */
export const RESTORE_ENTITIES = `INSERT INTO entities
    (id, created_at, updated_at, group_id, entity_type_id, name, description, import_ref, notes,
     quantity, insured, archived, asset_id, serial_number, model_number, manufacturer,
     lifetime_warranty, warranty_expires, warranty_details, purchase_date, purchase_from,
     purchase_price, sold_date, sold_to, sold_price, sold_notes, sync_child_entity_locations)
  SELECT ${restoredId('r.id')}, COALESCE(r.created_at, now()), COALESCE(r.updated_at, now()), $3,
    t.id, r.name, COALESCE(r.description, ''), r.import_ref, COALESCE(r.notes, ''),
    COALESCE(r.quantity, 1), COALESCE(r.insured, false), COALESCE(r.archived, false),
    COALESCE(r.asset_id, 0), COALESCE(r.serial_number, ''), COALESCE(r.model_number, ''),
    COALESCE(r.manufacturer, ''), COALESCE(r.lifetime_warranty, false), r.warranty_expires,
    COALESCE(r.warranty_details, ''), r.purchase_date, COALESCE(r.purchase_from, ''),
    COALESCE(r.purchase_price, 0), r.sold_date, COALESCE(r.sold_to, ''),
    COALESCE(r.sold_price, 0), COALESCE(r.sold_notes, ''),
    COALESCE(r.sync_child_entity_locations, false)
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, created_at timestamptz, updated_at timestamptz,
    entity_type_id text, name text, description text, import_ref text, notes text,
    quantity double precision, insured boolean, archived boolean, asset_id bigint,
    serial_number text, model_number text, manufacturer text, lifetime_warranty boolean,
    warranty_expires date, warranty_details text, purchase_date date, purchase_from text,
    purchase_price numeric, sold_date date, sold_to text, sold_price numeric, sold_notes text,
    sync_child_entity_locations boolean)
  LEFT JOIN entity_types t ON t.id = ${restoredId('r.entity_type_id')} AND t.group_id = $3`;

/** Sets restored entities' parents (`$1` rows with id and parent_id). */
export const RESTORE_ENTITY_PARENTS = `UPDATE entities e SET parent_id = ${restoredId('r.parent_id')}
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, parent_id text)
  WHERE e.id = ${restoredId('r.id')} AND e.group_id = $3 AND r.parent_id IS NOT NULL`;

/** Restores custom fields (`$1` rows, `$2` id key, `$3` group, checked on the entity). */
export const RESTORE_ENTITY_FIELDS = `INSERT INTO entity_fields
    (id, created_at, updated_at, entity_id, name, description, type, text_value, number_value,
     boolean_value, time_value, position)
  SELECT ${restoredId('r.id')}, COALESCE(r.created_at, now()), COALESCE(r.updated_at, now()),
    e.id, r.name, COALESCE(r.description, ''), r.type, COALESCE(r.text_value, ''),
    COALESCE(r.number_value, 0), COALESCE(r.boolean_value, false), r.time_value,
    COALESCE(r.position, 0)
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, created_at timestamptz, updated_at timestamptz,
    entity_id text, name text, description text, type text, text_value text, number_value bigint,
    boolean_value boolean, time_value timestamptz, position integer)
  LEFT JOIN entities e ON e.id = ${restoredId('r.entity_id')} AND e.group_id = $3`;

/** Restores tag links (`$1` rows, `$2` id key, `$3` group, checked on the entity). */
export const RESTORE_ENTITY_TAGS = `INSERT INTO entity_tags (entity_id, tag_id)
  SELECT e.id, ${restoredId('r.tag_id')}
  FROM jsonb_to_recordset($1::jsonb) AS r(entity_id text, tag_id text)
  LEFT JOIN entities e ON e.id = ${restoredId('r.entity_id')} AND e.group_id = $3
  ON CONFLICT DO NOTHING`;

/** Entities of group `$1` by kind: `locations` (of a location type) and `items`. */
export const COUNT_ENTITIES = `SELECT count(*) FILTER (WHERE t.is_location)::int AS locations,
    count(*) FILTER (WHERE NOT t.is_location)::int AS items
  FROM entities e JOIN entity_types t ON t.id = e.entity_type_id WHERE e.group_id = $1`;
