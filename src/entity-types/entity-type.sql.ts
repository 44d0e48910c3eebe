/** The number of entities of type `$1`. */
export const COUNT_ENTITIES =
  'SELECT count(*)::int AS count FROM entities WHERE entity_type_id = $1';

/** Template `$1` if it is one of group `$2`'s, locked against deletion. */
export const SHARE_TEMPLATE =
  'SELECT id FROM entity_templates WHERE id = $1 AND group_id = $2 FOR SHARE';
