import { ancestors, descendants } from '../../platform/database/hierarchy.sql.js';

/**
 * Where putting tag `$3` (null for a new tag) under tag `$2` of group `$1` would leave it:
 * `parentDepth`, the levels from a root down to `$2` (0 when `$2` is not a tag of the group);
 * `cycle`, whether `$2` is `$3` or below it; `height`, the levels of `$3`'s subtree (1 for a
 * leaf or a new tag).
 */
export const PLACEMENT = `WITH RECURSIVE
  parent AS (SELECT id, parent_id FROM tags WHERE id = $2 AND group_id = $1),
  ${ancestors('chain', 'tags', 'parent', '$1')},
  moved AS (SELECT id FROM tags WHERE id = $3 AND group_id = $1),
  ${descendants('subtree', 'tags', 'moved', '$1')}
  SELECT (SELECT count(*) FROM chain)::int AS "parentDepth",
         EXISTS (SELECT 1 FROM chain WHERE id = $3) AS cycle,
         COALESCE((SELECT max(depth) + 1 FROM subtree), 1)::int AS height`;

/** Deletes every tag of group `$1` (they leave their entities too); how many it deleted. */
export const DELETE_ALL_OF_GROUP = `WITH deleted AS (
    DELETE FROM tags WHERE group_id = $1 RETURNING 1
  )
  SELECT count(*)::int AS count FROM deleted`;
