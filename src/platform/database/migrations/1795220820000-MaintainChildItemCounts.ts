import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The rows one statement changed, each with +1 (now) or -1 (before), for a trigger's sums. */
const changedRows = (sides: readonly ('old' | 'new')[]): string =>
  sides
    .map(
      (side) =>
        `SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, ${side === 'old' ? '-1' : '1'} AS sign FROM ${side}_entities`,
    )
    .join(' UNION ALL ');

/**
 * A copy of MaintainGroupStatistics's, as it was then. The body of the statement triggers that keep the group statistics (notes §16) with the
 * entity counts: per group, type and archived state the count, the value (Σ purchase price ×
 * quantity) and the lifetime warranties (entity_counts); per parent and child type the Σ
 * purchase price of the children (entity_child_values); and, on a change of price, the Σ
 * purchase price of the entities carrying each tag (tag_values).
 *
 * Every writer of these sums locks the groups concerned first (as every create does), so the
 * sums' rows are only ever written by one transaction of a group at a time: a missing row is
 * simply inserted, and no two transactions wait on each other's rows. Rows of a group or type
 * deleted in the same transaction (a group's deletion cascades) are not made again.
 */
const maintainStatistics = (sides: readonly ('old' | 'new')[]): string => {
  const rows = changedRows(sides);
  return `
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT group_id FROM (${rows}) c
      GROUP BY id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
               lifetime_warranty
      HAVING sum(sign) <> 0)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH net AS (
      SELECT group_id, entity_type_id, archived, sum(sign) AS entities,
             sum(sign * purchase_price * quantity::numeric) AS item_value,
             sum(sign) FILTER (WHERE lifetime_warranty) AS lifetime_warranties
      FROM (${rows}) c GROUP BY group_id, entity_type_id, archived
    ), changed AS (
      SELECT group_id, entity_type_id, archived, entities, item_value,
             coalesce(lifetime_warranties, 0) AS lifetime_warranties
      FROM net WHERE entities <> 0 OR item_value <> 0 OR coalesce(lifetime_warranties, 0) <> 0
    ), updated AS (
      UPDATE entity_counts c SET entities = c.entities + d.entities,
        item_value = c.item_value + d.item_value,
        lifetime_warranties = c.lifetime_warranties + d.lifetime_warranties
      FROM changed d
      WHERE c.group_id = d.group_id AND c.entity_type_id = d.entity_type_id AND c.archived = d.archived
      RETURNING c.group_id, c.entity_type_id, c.archived
    )
    INSERT INTO entity_counts (group_id, entity_type_id, archived, entities, item_value, lifetime_warranties)
    SELECT d.group_id, d.entity_type_id, d.archived, d.entities, d.item_value, d.lifetime_warranties
    FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.group_id = d.group_id
                        AND u.entity_type_id = d.entity_type_id AND u.archived = d.archived)
      AND EXISTS (SELECT 1 FROM groups g WHERE g.id = d.group_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);

    WITH changed AS (
      SELECT parent_id, entity_type_id, sum(sign * purchase_price) AS value
      FROM (${rows}) c WHERE parent_id IS NOT NULL
      GROUP BY parent_id, entity_type_id HAVING sum(sign * purchase_price) <> 0
    ), updated AS (
      UPDATE entity_child_values v SET value = v.value + d.value FROM changed d
      WHERE v.parent_id = d.parent_id AND v.entity_type_id = d.entity_type_id
      RETURNING v.parent_id, v.entity_type_id
    )
    INSERT INTO entity_child_values (parent_id, entity_type_id, value)
    SELECT d.parent_id, d.entity_type_id, d.value FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.parent_id = d.parent_id
                        AND u.entity_type_id = d.entity_type_id)
      AND EXISTS (SELECT 1 FROM entities p WHERE p.id = d.parent_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);
    ${
      sides.length === 2
        ? `
    UPDATE tag_values v SET value = v.value + d.value
    FROM (SELECT et.tag_id, sum(n.purchase_price - o.purchase_price) AS value
          FROM new_entities n JOIN old_entities o ON o.id = n.id
          JOIN entity_tags et ON et.entity_id = n.id
          WHERE n.purchase_price <> o.purchase_price GROUP BY et.tag_id) d
    WHERE v.tag_id = d.tag_id;`
        : ''
    }`;
};

/** The transition tables each event on `entities` sees. */
const EVENT_SIDES = {
  insert: ['new'],
  update: ['old', 'new'],
  delete: ['old'],
} as const;

/**
 * The part of the entity counts' triggers that keeps `entity_child_items`: per parent and child
 * type, the Σ quantity of the children that are not archived. The statistics part before it has
 * locked the groups whose rows changed (a change of quantity, archived state or parent is among
 * what it groups by), so, as for `entity_child_values`, only one transaction of a group writes
 * these rows at a time and a missing row is simply inserted. Sums are numeric, so adding and
 * taking away fractional quantities never drifts.
 */
const maintainChildItems = (sides: readonly ('old' | 'new')[]): string => {
  const rows = sides
    .map(
      (side) =>
        `SELECT parent_id, entity_type_id, quantity::numeric * ${side === 'old' ? '-1' : '1'} AS quantity
         FROM ${side}_entities WHERE parent_id IS NOT NULL AND NOT archived`,
    )
    .join(' UNION ALL ');
  return `
    WITH changed AS (
      SELECT parent_id, entity_type_id, sum(quantity) AS quantity FROM (${rows}) c
      GROUP BY parent_id, entity_type_id HAVING sum(quantity) <> 0
    ), updated AS (
      UPDATE entity_child_items i SET quantity = i.quantity + d.quantity FROM changed d
      WHERE i.parent_id = d.parent_id AND i.entity_type_id = d.entity_type_id
      RETURNING i.parent_id, i.entity_type_id
    )
    INSERT INTO entity_child_items (parent_id, entity_type_id, quantity)
    SELECT d.parent_id, d.entity_type_id, d.quantity FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.parent_id = d.parent_id
                        AND u.entity_type_id = d.entity_type_id)
      AND EXISTS (SELECT 1 FROM entities p WHERE p.id = d.parent_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);`;
};

const countingFunction = (event: keyof typeof EVENT_SIDES, withItems: boolean): string => {
  const sides = EVENT_SIDES[event];
  return `CREATE OR REPLACE FUNCTION "entity_counts_after_${event}"() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
      ${maintainStatistics(sides)}
      ${withItems ? maintainChildItems(sides) : ''}
      RETURN NULL;
    END
    $$`;
};

/**
 * The item count of a location's view (the Σ quantity of the non-archived items directly
 * inside) is read from sums the database keeps, like the group statistics, instead of from the
 * location's children: a page of 50 items shows about a hundred locations above them, and each
 * count then costs one short index read whatever the number of children. The sums are kept per
 * child type, so a type that becomes or stops being a location type changes the counts at once.
 */
export class MaintainChildItemCounts1795220820000 implements MigrationInterface {
  name = 'MaintainChildItemCounts1795220820000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "entity_child_items" ("parent_id" uuid NOT NULL, "entity_type_id" uuid NOT NULL, "quantity" numeric NOT NULL, CONSTRAINT "entity_child_items_pkey" PRIMARY KEY ("parent_id", "entity_type_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_child_items" ADD CONSTRAINT "entity_child_items_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_child_items" ADD CONSTRAINT "entity_child_items_entity_type_id_fkey" FOREIGN KEY ("entity_type_id") REFERENCES "entity_types"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_child_items_entity_type_id_idx" ON "entity_child_items" ("entity_type_id")`,
    );
    // Writes to entities wait until this migration commits (with the triggers that keep the
    // sums), so no change made while the sums are counted is missed.
    await queryRunner.query(`LOCK TABLE "entities" IN SHARE MODE`);
    await queryRunner.query(
      `INSERT INTO entity_child_items (parent_id, entity_type_id, quantity)
       SELECT parent_id, entity_type_id, sum(quantity::numeric) FROM entities
       WHERE parent_id IS NOT NULL AND NOT archived GROUP BY parent_id, entity_type_id
       HAVING sum(quantity::numeric) <> 0`,
    );
    await queryRunner.query(`ANALYZE "entity_child_items"`);
    for (const event of Object.keys(EVENT_SIDES) as (keyof typeof EVENT_SIDES)[]) {
      await queryRunner.query(countingFunction(event, true));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of Object.keys(EVENT_SIDES) as (keyof typeof EVENT_SIDES)[]) {
      await queryRunner.query(countingFunction(event, true));
    }
    await queryRunner.query(`DROP TABLE "entity_child_items"`);
  }
}
