import { isoTimestamp } from '../../platform/database/json.sql.js';

/**
 * The group statistics of Homebox (notes §16), each one statement scoped to a group (`$1`).
 * Statistics necessarily read several modules' tables (entities, entity types, tags, group
 * memberships) in one statement, as the entity views do; they only read, never write.
 *
 * An "item" is an entity whose type is not a location type; a "location" is one whose type is.
 */

/**
 * `{totalUsers, totalItems, totalLocations, totalTags, totalItemPrice, totalWithWarranty}`. A
 * warranty counts while its expiry day (midnight UTC, as Homebox stores it) is after now. The
 * counts, value and lifetime warranties are the sums the database keeps (entity_counts); the
 * warranties that end on a day are counted from their partial index.
 */
export const GROUP_TOTALS = `WITH counts AS (
  SELECT t.is_location, c.archived, c.entities, c.item_value, c.lifetime_warranties
  FROM entity_counts c JOIN entity_types t ON t.id = c.entity_type_id WHERE c.group_id = $1
)
SELECT
  (SELECT count(*)::int FROM group_memberships m WHERE m.group_id = $1) AS "totalUsers",
  (SELECT coalesce(sum(entities), 0)::int FROM counts WHERE NOT is_location AND NOT archived)
    AS "totalItems",
  (SELECT coalesce(sum(item_value), 0)::float8 FROM counts WHERE NOT is_location AND NOT archived)
    AS "totalItemPrice",
  ((SELECT coalesce(sum(lifetime_warranties), 0) FROM counts WHERE NOT is_location AND NOT archived)
   + (SELECT count(*) FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
      WHERE e.group_id = $1 AND NOT e.archived AND NOT e.lifetime_warranty
        AND e.warranty_expires > (now() AT TIME ZONE 'UTC')::date AND NOT t.is_location))::int
    AS "totalWithWarranty",
  (SELECT coalesce(sum(entities), 0)::int FROM counts WHERE is_location) AS "totalLocations",
  (SELECT count(*)::int FROM tags g WHERE g.group_id = $1) AS "totalTags"`;

/**
 * Purchase prices between `$2` and `$3`: the sums of the non-archived items created before each
 * bound, and one entry per item (archived or not) created within them, oldest first.
 */
export const PURCHASE_PRICE = `SELECT
  coalesce(sum(e.purchase_price::float8) FILTER (WHERE NOT e.archived AND e.created_at < $2), 0)
    ::float8 AS "valueAtStart",
  coalesce(sum(e.purchase_price::float8) FILTER (WHERE NOT e.archived AND e.created_at < $3), 0)
    ::float8 AS "valueAtEnd",
  coalesce(json_agg(json_build_object('date', ${isoTimestamp('e.created_at')}, 'value', e.purchase_price::float8,
      'name', '') ORDER BY e.created_at, e.id)
    FILTER (WHERE e.created_at >= $2 AND e.created_at <= $3), '[]') AS entries
FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
WHERE e.group_id = $1 AND NOT t.is_location`;

/**
 * Per location, the sum of the purchase prices of its direct children that are items (archived
 * included), only where that sum is above 0; largest first. Read from the sums the database
 * keeps per parent and child type (entity_child_values).
 */
export const LOCATION_TOTALS = `SELECT l.id, l.name, sum(v.value)::float8 AS total
FROM entities l
JOIN entity_types lt ON lt.id = l.entity_type_id AND lt.is_location
JOIN entity_child_values v ON v.parent_id = l.id
JOIN entity_types ct ON ct.id = v.entity_type_id AND NOT ct.is_location
WHERE l.group_id = $1
GROUP BY l.id, l.name
HAVING sum(v.value) > 0
ORDER BY total DESC, l.name, l.id`;

/**
 * The version of group `$1`'s location totals: its tree of locations and the sums kept per
 * parent (`location_versions`), as `tree.totals`; each grows with every committed change.
 */
export const LOCATION_TOTALS_VERSION = `SELECT coalesce(max(v.tree), 0) || '.' || coalesce(max(v.totals), 0)
  AS version FROM location_versions v WHERE v.group_id = $1`;

/**
 * Per tag carrying at least one entity, the sum of the purchase prices of every entity carrying
 * it (archived included, quantity ignored); largest first. Tags on no entity are left out, as
 * Homebox's inner join leaves them out. Read from the sums the database keeps per tag
 * (tag_values).
 */
export const TAG_TOTALS = `SELECT g.id, g.name, v.value::float8 AS total
FROM tags g JOIN tag_values v ON v.tag_id = g.id
WHERE g.group_id = $1 AND v.entities > 0
ORDER BY total DESC, g.name, g.id`;
