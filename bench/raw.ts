import type pg from 'pg';
import { nameOrder } from '../src/platform/database/name-order.js';

/**
 * The group statistics run Trove's own statements (they are plain SQL already), unprepared as
 * Trove runs them; every raw statement the benchmark sends comes from this file.
 */
export {
  GROUP_TOTALS,
  LOCATION_TOTALS,
  TAG_TOTALS,
} from '../src/inventory/statistics/statistics.sql.js';

/**
 * The SQL of Trove's list, get and create written by hand with `pg`: the same data in as few
 * statements as possible, without HTTP, validation or authentication. Its rate is the ceiling
 * Trove cannot exceed on the same database. Get and create run as prepared statements, as
 * Trove's do; a list's text depends on its filter, so neither prepares it.
 */

/**
 * What every shown entity carries (entities.service.ts and entity-views.service.ts): the whole
 * row, its type with the default template, its tags, its primary photo and, for a location, the
 * quantity of the items directly inside it (from the sums the database keeps, as Trove reads it).
 */
const ENTITY_VIEW = `
  e.*,
  to_jsonb(t) AS entity_type,
  to_jsonb(tpl) AS default_template,
  (SELECT coalesce(json_agg(g ORDER BY g.name, g.id), '[]') FROM entity_tags et
     JOIN tags g ON g.id = et.tag_id WHERE et.entity_id = e.id) AS tags,
  (SELECT json_build_object('id', a.id, 'thumbnailId', a.thumbnail_id) FROM attachments a
     WHERE a.entity_id = e.id AND a.type = 'photo' AND a."primary"
     ORDER BY a.created_at LIMIT 1) AS photo,
  CASE WHEN t.is_location THEN
    (SELECT coalesce(sum(i.quantity), 0) FROM entity_child_items i
       JOIN entity_types ct ON ct.id = i.entity_type_id
       WHERE i.parent_id = e.id AND NOT ct.is_location)
  END AS item_count`;

const VIEW_JOINS = `JOIN entity_types t ON t.id = e.entity_type_id
  LEFT JOIN entity_templates tpl ON tpl.id = t.default_template_id`;

/** The ancestors of the rows of `seed(id, parent_id)`, those rows included, with their depth. */
const CHAIN = `chain(id, parent_id, depth) AS (
    SELECT id, parent_id, 0 FROM seed
    UNION
    SELECT p.id, p.parent_id, c.depth + 1 FROM entities p JOIN chain c ON p.id = c.parent_id
    WHERE p.group_id = $1 AND c.depth < 1000
  )`;

/** A list filter over `entities e JOIN entity_types t`, as entity-filter.ts writes it. */
export interface RawFilter {
  where: string;
  params: unknown[];
}

/** The first page of the default list: items, not archived, by name. */
const ITEMS_FILTER = 'e.group_id = $1 AND NOT t.is_location AND NOT e.archived';

/** How many entities pass ITEMS_FILTER: the counts PostgreSQL keeps (entity_counts). */
const ITEMS_TOTAL = `(SELECT coalesce(sum(c.entities), 0)::int FROM entity_counts c
  JOIN entity_types t ON t.id = c.entity_type_id
  WHERE c.group_id = $1 AND NOT t.is_location AND NOT c.archived)`;

/**
 * One statement: the total (from the maintained counts, as Trove reads it for the unfiltered
 * list), the page (by name) and the view of every entity on it and of all their ancestors;
 * `position` orders the page, ancestors have none.
 */
export function listStatement(pageSize: number, offset: number): string {
  const where = ITEMS_FILTER;
  return `WITH RECURSIVE seed AS (
      SELECT id, parent_id, row_number() OVER () AS position FROM (
        SELECT e.id, e.parent_id FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
        WHERE ${where} ORDER BY ${nameOrder('e')} LIMIT ${pageSize} OFFSET ${offset}
      ) page
    ),
    ${CHAIN}
    SELECT seed.position, ${ITEMS_TOTAL} AS total,
      ${ENTITY_VIEW}
    FROM (SELECT DISTINCT id FROM chain) shown
    JOIN entities e ON e.id = shown.id ${VIEW_JOINS}
    LEFT JOIN seed ON seed.id = e.id
    ORDER BY seed.position NULLS LAST`;
}

/**
 * One statement: the entity with its type, tags, fields and attachments (with thumbnails), its
 * ancestors (depth > 0) and its child locations (depth -1), each with its view.
 */
export const GET_STATEMENT = `WITH RECURSIVE seed AS (
    SELECT e.id, e.parent_id FROM entities e WHERE e.id = $2 AND e.group_id = $1
  ),
  ${CHAIN},
  shown AS (
    SELECT id, depth FROM chain
    UNION ALL
    SELECT c.id, -1 FROM entities c JOIN entity_types ct ON ct.id = c.entity_type_id
    WHERE c.group_id = $1 AND c.parent_id = $2 AND ct.is_location
  )
  SELECT shown.depth, ${ENTITY_VIEW},
    CASE WHEN shown.depth = 0 THEN
      (SELECT coalesce(json_agg(f ORDER BY f.position, f.created_at, f.id), '[]') FROM entity_fields f
         WHERE f.entity_id = e.id)
    END AS fields,
    CASE WHEN shown.depth = 0 THEN
      (SELECT coalesce(json_agg(json_build_object('attachment', a, 'thumbnail', th)
                                ORDER BY a.created_at, a.id), '[]')
         FROM attachments a LEFT JOIN attachments th ON th.id = a.thumbnail_id
         WHERE a.entity_id = e.id AND a.type <> 'thumbnail')
    END AS attachments
  FROM shown JOIN entities e ON e.id = shown.id ${VIEW_JOINS}
  ORDER BY shown.depth DESC, ${nameOrder('e')}`;

/** One statement: entity `$2` of group `$1` and its ancestors with name and kind, from the top. */
export const PATH_STATEMENT = `WITH RECURSIVE seed AS (
    SELECT e.id, e.parent_id FROM entities e WHERE e.id = $2 AND e.group_id = $1
  ),
  ${CHAIN}
  SELECT e.id, e.name, t.is_location FROM chain
  JOIN entities e ON e.id = chain.id JOIN entity_types t ON t.id = e.entity_type_id
  ORDER BY chain.depth DESC`;

/** The get as Trove prepares it, of entity `entityId`. */
export function rawGet(pool: pg.Pool, groupId: string, entityId: string): Promise<unknown> {
  return pool.query({ name: 'raw_get', text: GET_STATEMENT, values: [groupId, entityId] });
}

/** The path of entity `entityId`, prepared as Trove prepares it. */
export function rawPath(pool: pg.Pool, groupId: string, entityId: string): Promise<unknown> {
  return pool.query({ name: 'raw_path', text: PATH_STATEMENT, values: [groupId, entityId] });
}

export interface RawCreate {
  groupId: string;
  entityTypeId: string;
  parentId: string;
  name: string;
  tagIds: string[];
}

/**
 * A create as Trove stores it (prepared, as Trove prepares it): one statement that checks the type, parent and tags are the
 * group's, takes the next asset id (`entity_next_asset_id` locks the group row until the
 * statement commits) and writes the entity with its tags; then the view of the new entity,
 * which the response carries.
 */
export async function rawCreate(pool: pg.Pool, entity: RawCreate): Promise<string> {
  const { rows } = await pool.query<{ id: string }>({
    name: 'raw_create',
    text: `WITH created AS (
       INSERT INTO entities (group_id, asset_id, entity_type_id, parent_id, name, quantity)
       SELECT $1, entity_next_asset_id($1), t.id, $3, $4, 1 FROM entity_types t
       WHERE t.group_id = $1 AND t.id = $2
         AND EXISTS (SELECT 1 FROM entities p WHERE p.id = $3 AND p.group_id = $1)
         AND (SELECT count(*) FROM tags g WHERE g.id = ANY($5::uuid[]) AND g.group_id = $1)
             = cardinality($5::uuid[])
       RETURNING id
     ), tagged AS (
       INSERT INTO entity_tags (entity_id, tag_id)
       SELECT created.id, unnest($5::uuid[]) FROM created
     )
     SELECT id FROM created`,
    values: [entity.groupId, entity.entityTypeId, entity.parentId, entity.name, entity.tagIds],
  });
  if (!rows[0]) throw new Error('raw create stored nothing');
  await rawGet(pool, entity.groupId, rows[0].id);
  return rows[0].id;
}

export interface RawLoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Latencies in milliseconds. */
  p50: number;
  p90: number;
  p99: number;
  max: number;
  errors: number;
  firstError?: string;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * `concurrency` loops calling `operation` back to back for `seconds`, over a pool of as many
 * connections; `operation` gets the loop's running request number.
 */
export async function runRawLoad(
  concurrency: number,
  seconds: number,
  operation: (n: number) => Promise<unknown>,
): Promise<RawLoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const begun = performance.now();
      try {
        await operation(next++);
        latencies.push(performance.now() - begun);
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length + errors,
    seconds: elapsed,
    requestsPerSecond: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p90: percentile(latencies, 0.9),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? 0,
    errors,
    firstError,
  };
}
