/**
 * The one hierarchy query: entities and tags are trees through `parent_id` within a group, and
 * every walk up or down them is built here, with one depth limit. The fragments are recursive
 * CTEs, so a statement using one must say `WITH RECURSIVE`.
 */

/**
 * How many levels a walk goes at most. Trees are never this deep; the limit only guarantees that
 * a walk ends should a stored tree ever hold a cycle.
 */
export const MAX_HIERARCHY_DEPTH = 1000;

/** The tables that form trees: `id`, `parent_id` and `group_id` columns. */
export type HierarchyTable = 'entities' | 'tags';

/**
 * `name(id, parent_id, depth)`: the rows of `seed` (a CTE or table with `id` and `parent_id`)
 * at depth 0 and all their ancestors in the group `group` (a parameter such as `$1`), each
 * ancestor at its distance above the seed row it was reached from. Each step looks up one row
 * by its key (a lateral lookup, so that however many rows the walk is estimated to reach, as in
 * a generic plan of a prepared statement, PostgreSQL never scans the whole table for it).
 */
export const ancestors = (
  name: string,
  table: HierarchyTable,
  seed: string,
  group: string,
): string => `${name}(id, parent_id, depth) AS (
    SELECT id, parent_id, 0 FROM ${seed}
    UNION
    SELECT p.id, p.parent_id, c.depth + 1 FROM ${name} c CROSS JOIN LATERAL (
      SELECT p.id, p.parent_id FROM ${table} p
      WHERE p.id = c.parent_id AND p.group_id = ${group} LIMIT 1
    ) p
    WHERE c.depth < ${MAX_HIERARCHY_DEPTH}
  )`;

/**
 * `name(id, depth)`: the rows of `seed` (with an `id` column) at depth 0 and all their
 * descendants in the group `group`, each at its distance below the seed row.
 */
export const descendants = (
  name: string,
  table: HierarchyTable,
  seed: string,
  group: string,
): string => `${name}(id, depth) AS (
    SELECT id, 0 FROM ${seed}
    UNION
    SELECT c.id, d.depth + 1 FROM ${table} c JOIN ${name} d ON c.parent_id = d.id
    WHERE c.group_id = ${group} AND d.depth < ${MAX_HIERARCHY_DEPTH}
  )`;

/**
 * Whether placing row `$3` under row `$2` of group `$1` would close a loop: `$2` is `$3` itself
 * or one of its descendants, that is `$3` is among `$2` and its ancestors. One row, `cycle`.
 */
export const wouldCycle = (table: HierarchyTable): string => `WITH RECURSIVE
  start AS (SELECT id, parent_id FROM ${table} WHERE id = $2 AND group_id = $1),
  ${ancestors('up', table, 'start', '$1')}
  SELECT EXISTS (SELECT 1 FROM up WHERE id = $3) AS cycle`;

/**
 * `name(seed, parent_id, path, depth)`: for each row of `seed` (with `id`, `parent_id` and
 * `name`), its name at depth 0, then its parent's name and that joined by `separator`, and so on
 * upwards in the group `group`: the row of greatest depth of a seed holds the names from the
 * top down to it. Each step looks up one row by its key (a lateral lookup, so that however many
 * rows the walk is estimated to reach, PostgreSQL never scans the whole table for it).
 */
export const namePathsUp = (
  name: string,
  table: HierarchyTable,
  seed: string,
  group: string,
  separator: string,
): string => `${name}(seed, parent_id, path, depth) AS (
    SELECT id, parent_id, name::text, 0 FROM ${seed}
    UNION ALL
    SELECT c.seed, p.parent_id, p.name || ${separator} || c.path, c.depth + 1
    FROM ${name} c CROSS JOIN LATERAL (
      SELECT p.parent_id, p.name FROM ${table} p
      WHERE p.id = c.parent_id AND p.group_id = ${group} LIMIT 1
    ) p
    WHERE c.depth < ${MAX_HIERARCHY_DEPTH}
  )`;

/**
 * `name(seed, id, parent_id, depth)`: for each row of `seed` (with `id` and `parent_id`), each of
 * its ancestors in the group `group`, its parent at depth 1, the parent's parent at 2, and so
 * on; a seed at the top level has none. Each step looks up one row by its key, as `namePathsUp`.
 */
export const ancestorsOfEach = (
  name: string,
  table: HierarchyTable,
  seed: string,
  group: string,
): string => `${name}(seed, id, parent_id, depth) AS (
    SELECT s.id, p.id, p.parent_id, 1 FROM ${seed} s CROSS JOIN LATERAL (
      SELECT p.id, p.parent_id FROM ${table} p
      WHERE p.id = s.parent_id AND p.group_id = ${group} LIMIT 1
    ) p
    UNION ALL
    SELECT c.seed, p.id, p.parent_id, c.depth + 1
    FROM ${name} c CROSS JOIN LATERAL (
      SELECT p.id, p.parent_id FROM ${table} p
      WHERE p.id = c.parent_id AND p.group_id = ${group} LIMIT 1
    ) p
    WHERE c.depth < ${MAX_HIERARCHY_DEPTH}
  )`;
