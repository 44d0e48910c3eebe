import { isoTimestamp } from '../database/json.sql.js';

/**
 * The group statistics of Homebox (notes §16), each one statement scoped to a group (`$1`).
 * Statistics necessarily read several modules' tables (entities, entity types, tags, group
 * memberships) in one statement, as the entity views do; they only read, never write.
 *
 * An "item" is an entity whose type is not a location type; a "location" is one whose type is.
 */

/**
 * `{totalUsers, totalItems, totalLocations, totalTags, totalItemPrice, totalWithWarranty}`. A
 * warranty counts while its expiry day (midnight UTC, as Homebox stores it) is after now.
 */
export const GROUP_TOTALS = `SELECT
  (SELECT count(*)::int FROM group_memberships m WHERE m.group_id = $1) AS "totalUsers",
  items."totalItems", items."totalItemPrice", items."totalWithWarranty",
  (SELECT count(*)::int FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
    WHERE e.group_id = $1 AND t.is_location) AS "totalLocations",
  (SELECT count(*)::int FROM tags g WHERE g.group_id = $1) AS "totalTags"
FROM (
  SELECT count(*)::int AS "totalItems",
    coalesce(sum(e.purchase_price::float8 * e.quantity), 0)::float8 AS "totalItemPrice",
    (count(*) FILTER (WHERE e.lifetime_warranty OR e.warranty_expires > (now() AT TIME ZONE 'UTC')::date))::int
      AS "totalWithWarranty"
  FROM entities e JOIN entity_types t ON t.id = e.entity_type_id
  WHERE e.group_id = $1 AND NOT e.archived AND NOT t.is_location
) items`;

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
 * included), only where that sum is above 0; largest first.
 */
export const LOCATION_TOTALS = `SELECT l.id, l.name, sum(c.purchase_price::float8)::float8 AS total
FROM entities l
JOIN entity_types lt ON lt.id = l.entity_type_id AND lt.is_location
JOIN entities c ON c.parent_id = l.id
JOIN entity_types ct ON ct.id = c.entity_type_id AND NOT ct.is_location
WHERE l.group_id = $1 AND c.group_id = $1
GROUP BY l.id, l.name
HAVING sum(c.purchase_price::float8) > 0
ORDER BY total DESC, l.name, l.id`;

/**
 * Per tag carrying at least one entity, the sum of the purchase prices of every entity carrying
 * it (archived included, quantity ignored); largest first. Tags on no entity are left out, as
 * Homebox's inner join leaves them out.
 */
export const TAG_TOTALS = `SELECT g.id, g.name, sum(e.purchase_price::float8)::float8 AS total
FROM tags g
JOIN entity_tags et ON et.tag_id = g.id
JOIN entities e ON e.id = et.entity_id
WHERE g.group_id = $1 AND e.group_id = $1
GROUP BY g.id, g.name
ORDER BY total DESC, g.name, g.id`;
