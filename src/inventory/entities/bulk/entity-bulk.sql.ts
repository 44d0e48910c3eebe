import { ancestors } from '../../../platform/database/hierarchy.sql.js';
import type { BulkFieldName } from './dto/bulk-entity-change.dto.js';

/**
 * Set-based statements of bulk changes: each changes every named entity of group `$1` (ids
 * `$2`) at once, and answers one row with the `count` of entities it changed. An entity that
 * already is as the change would make it is left alone (and its `updated_at` with it).
 */

/**
 * Locks the entities `$2` of group `$1` (by id, so that concurrent bulk changes take them in
 * the same order) until the unit of work ends; their ids. Those it does not answer are not the
 * group's.
 */
export const LOCK_OWNED = `SELECT e.id FROM entities e
  WHERE e.group_id = $1 AND e.id = ANY($2::uuid[])
  ORDER BY e.id FOR UPDATE`;

/** Which of the entities `$3` are entity `$2` of group `$1` or one of its ancestors. */
export const AMONG_PARENT_AND_ANCESTORS = `WITH RECURSIVE
  start AS (SELECT id, parent_id FROM entities WHERE id = $2 AND group_id = $1),
  ${ancestors('up', 'entities', 'start', '$1')}
  SELECT DISTINCT up.id FROM up WHERE up.id = ANY($3::uuid[])`;

/** Puts the entities under entity `$3` (null: at the top level). */
export const MOVE = `WITH changed AS (
    UPDATE entities SET parent_id = $3::uuid, updated_at = now()
    WHERE group_id = $1 AND id = ANY($2::uuid[]) AND parent_id IS DISTINCT FROM $3::uuid
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM changed`;

/** Gives the entities the tags `$3` they lack; counts the entities that gained one. */
export const ADD_TAGS = `WITH added AS (
    INSERT INTO entity_tags (entity_id, tag_id)
    SELECT e.id, t.tag_id FROM entities e CROSS JOIN unnest($3::uuid[]) AS t(tag_id)
    WHERE e.group_id = $1 AND e.id = ANY($2::uuid[])
    ON CONFLICT DO NOTHING
    RETURNING entity_id
  ), changed AS (
    UPDATE entities SET updated_at = now()
    WHERE group_id = $1 AND id IN (SELECT entity_id FROM added)
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM changed`;

/** Takes the tags `$3` off the entities; counts the entities that lost one. */
export const REMOVE_TAGS = `WITH removed AS (
    DELETE FROM entity_tags
    WHERE tag_id = ANY($3::uuid[])
      AND entity_id IN (SELECT id FROM entities WHERE group_id = $1 AND id = ANY($2::uuid[]))
    RETURNING entity_id
  ), changed AS (
    UPDATE entities SET updated_at = now()
    WHERE group_id = $1 AND id IN (SELECT entity_id FROM removed)
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM changed`;

/** Archives (`$3` true) or unarchives the entities. */
export const SET_ARCHIVED = `WITH changed AS (
    UPDATE entities SET archived = $3::boolean, updated_at = now()
    WHERE group_id = $1 AND id = ANY($2::uuid[]) AND archived <> $3::boolean
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM changed`;

/** Deletes the entities (fields, tag links, attachments and maintenance go with them). */
export const DELETE = `WITH deleted AS (
    DELETE FROM entities WHERE group_id = $1 AND id = ANY($2::uuid[])
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM deleted`;

/** The column and SQL type of each attribute `setFields` may set. */
export const BULK_FIELD_COLUMNS: Readonly<Record<BulkFieldName, readonly [string, string]>> = {
  description: ['description', 'varchar'],
  quantity: ['quantity', 'double precision'],
  manufacturer: ['manufacturer', 'varchar'],
  modelNumber: ['model_number', 'varchar'],
  serialNumber: ['serial_number', 'varchar'],
  insured: ['insured', 'boolean'],
  lifetimeWarranty: ['lifetime_warranty', 'boolean'],
  warrantyExpires: ['warranty_expires', 'date'],
  warrantyDetails: ['warranty_details', 'varchar'],
  purchaseFrom: ['purchase_from', 'varchar'],
  purchaseDate: ['purchase_date', 'date'],
  purchasePrice: ['purchase_price', 'numeric'],
  soldTo: ['sold_to', 'varchar'],
  soldDate: ['sold_date', 'date'],
  soldPrice: ['sold_price', 'numeric'],
  soldNotes: ['sold_notes', 'varchar'],
  notes: ['notes', 'varchar'],
  entityTypeId: ['entity_type_id', 'uuid'],
};

/**
 * Sets the attributes `fields` (in that order, from `$3` on) on the entities that do not have
 * all of those values already. The text holds only column names of BULK_FIELD_COLUMNS.
 */
export const setFields = (fields: readonly BulkFieldName[]): string => {
  const columns = fields.map((field) => BULK_FIELD_COLUMNS[field][0]);
  const values = fields.map((field, index) => `$${index + 3}::${BULK_FIELD_COLUMNS[field][1]}`);
  return `WITH changed AS (
    UPDATE entities SET ${columns.map((column, index) => `${column} = ${values[index]}`).join(', ')},
      updated_at = now()
    WHERE group_id = $1 AND id = ANY($2::uuid[])
      AND (${columns.join(', ')}) IS DISTINCT FROM (${values.join(', ')})
    RETURNING 1
  )
  SELECT count(*)::int AS count FROM changed`;
};
