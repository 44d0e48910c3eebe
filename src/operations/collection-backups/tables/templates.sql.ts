import { isoTimestamp, restoredId } from './backup.sql.js';

/** Templates of group `$1` after id `$2`, at most `$3` (collection backup). */
export const BACKUP_TEMPLATES = `SELECT t.id, ${isoTimestamp('t.created_at')} AS created_at,
    ${isoTimestamp('t.updated_at')} AS updated_at, t.name, t.description, t.notes, t.default_name,
    t.default_description, t.default_manufacturer, t.default_model_number, t.default_quantity,
    t.default_insured, t.default_lifetime_warranty, t.default_warranty_details,
    t.default_location_id, to_json(t.default_tag_ids) AS default_tag_ids,
    t.include_purchase_fields, t.include_sold_fields, t.include_warranty_fields
  FROM entity_templates t WHERE t.group_id = $1 AND t.id > $2 ORDER BY t.id LIMIT $3`;

/** Fields of group `$1`'s templates after id `$2`, at most `$3`. */
export const BACKUP_TEMPLATE_FIELDS = `SELECT f.id, ${isoTimestamp('f.created_at')} AS created_at,
    ${isoTimestamp('f.updated_at')} AS updated_at, f.template_id, f.name, f.description, f.type,
    f.text_value, f.number_value::text AS number_value, f.boolean_value,
    ${isoTimestamp('f.time_value')} AS time_value, f.position
  FROM template_fields f JOIN entity_templates t ON t.id = f.template_id
  WHERE t.group_id = $1 AND f.id > $2 ORDER BY f.id LIMIT $3`;

/**
 * Restores templates (`$1` rows, `$2` id key, `$3` group) without their default location, set
 * once entities exist (RESTORE_TEMPLATE_LOCATIONS).
 */
export const RESTORE_TEMPLATES = `INSERT INTO entity_templates
    (id, created_at, updated_at, group_id, name, description, notes, default_name,
     default_description, default_manufacturer, default_model_number, default_quantity,
     default_insured, default_lifetime_warranty, default_warranty_details, default_tag_ids,
     include_purchase_fields, include_sold_fields, include_warranty_fields)
  SELECT ${restoredId('r.id')}, COALESCE(r.created_at, now()), COALESCE(r.updated_at, now()), $3,
    r.name, COALESCE(r.description, ''), COALESCE(r.notes, ''), COALESCE(r.default_name, ''),
    COALESCE(r.default_description, ''), COALESCE(r.default_manufacturer, ''),
    COALESCE(r.default_model_number, ''), COALESCE(r.default_quantity, 1),
    COALESCE(r.default_insured, false), COALESCE(r.default_lifetime_warranty, false),
    COALESCE(r.default_warranty_details, ''),
    ARRAY(SELECT ${restoredId('tag.id')} FROM jsonb_array_elements_text(
      COALESCE(r.default_tag_ids, '[]'::jsonb)) AS tag(id)),
    COALESCE(r.include_purchase_fields, false), COALESCE(r.include_sold_fields, false),
    COALESCE(r.include_warranty_fields, false)
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, created_at timestamptz, updated_at timestamptz,
    name text, description text, notes text, default_name text, default_description text,
    default_manufacturer text, default_model_number text, default_quantity double precision,
    default_insured boolean, default_lifetime_warranty boolean, default_warranty_details text,
    default_tag_ids jsonb, include_purchase_fields boolean, include_sold_fields boolean,
    include_warranty_fields boolean)`;

/** Sets restored templates' default locations (`$1` rows with id and default_location_id). */
export const RESTORE_TEMPLATE_LOCATIONS = `UPDATE entity_templates t
  SET default_location_id = ${restoredId('r.default_location_id')}
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, default_location_id text)
  WHERE t.id = ${restoredId('r.id')} AND t.group_id = $3 AND r.default_location_id IS NOT NULL`;

/** Restores template fields (`$1` rows, `$2` id key, `$3` group, checked on the template). */
export const RESTORE_TEMPLATE_FIELDS = `INSERT INTO template_fields
    (id, created_at, updated_at, template_id, name, description, type, text_value, number_value,
     boolean_value, time_value, position)
  SELECT ${restoredId('r.id')}, COALESCE(r.created_at, now()), COALESCE(r.updated_at, now()),
    t.id, r.name, COALESCE(r.description, ''), r.type,
    COALESCE(r.text_value, ''), COALESCE(r.number_value, 0), COALESCE(r.boolean_value, false),
    r.time_value, COALESCE(r.position, 0)
  FROM jsonb_to_recordset($1::jsonb) AS r(id text, created_at timestamptz, updated_at timestamptz,
    template_id text, name text, description text, type text, text_value text, number_value bigint,
    boolean_value boolean, time_value timestamptz, position integer)
  LEFT JOIN entity_templates t ON t.id = ${restoredId('r.template_id')} AND t.group_id = $3`;

/** Number of templates of group `$1`. */
export const COUNT_TEMPLATES =
  'SELECT count(*)::int AS n FROM entity_templates WHERE group_id = $1';
