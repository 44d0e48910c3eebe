import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The transition tables each trigger event sees. */
const EVENT_SIDES = {
  INSERT: ['new'],
  UPDATE: ['old', 'new'],
  DELETE: ['old'],
} as const;

/**
 * The functions the counting triggers run: each nets its statement's rows per (group, type,
 * archived) and hands the changes to `entity_counts_apply`. A copy of
 * MaintainEntityCounts's, as it was then, for `down`.
 */
async function createCountingFunctions(queryRunner: QueryRunner): Promise<void> {
  await queryRunner.query(
    `CREATE OR REPLACE FUNCTION "entity_counts_apply"(of_groups uuid[], of_types uuid[], of_archived boolean[], changes bigint[])
     RETURNS void LANGUAGE plpgsql AS $$
     BEGIN
       PERFORM 1 FROM groups g WHERE g.id = ANY(of_groups) ORDER BY g.id FOR NO KEY UPDATE;
       INSERT INTO entity_counts AS c (group_id, entity_type_id, archived, entities)
         SELECT * FROM unnest(of_groups, of_types, of_archived, changes) AS d(g, t, a, n)
         WHERE d.n > 0 ORDER BY 1, 2, 3
         ON CONFLICT (group_id, entity_type_id, archived)
         DO UPDATE SET entities = c.entities + excluded.entities;
       UPDATE entity_counts c SET entities = c.entities + d.n
         FROM (SELECT * FROM unnest(of_groups, of_types, of_archived, changes) AS d(g, t, a, n)
               WHERE d.n < 0 ORDER BY 1, 2, 3) d
         WHERE c.group_id = d.g AND c.entity_type_id = d.t AND c.archived = d.a;
     END
     $$`,
  );
  for (const event of ['INSERT', 'UPDATE', 'DELETE'] as const) {
    const tables = EVENT_SIDES[event]
      .map(
        (side) =>
          `SELECT group_id, entity_type_id, archived, ${side === 'old' ? '-1' : '1'} AS n FROM ${side}_entities`,
      )
      .join(' UNION ALL ');
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION "entity_counts_after_${event.toLowerCase()}"() RETURNS trigger
       LANGUAGE plpgsql AS $$
       DECLARE of_groups uuid[]; of_types uuid[]; of_archived boolean[]; changes bigint[];
       BEGIN
         SELECT array_agg(group_id), array_agg(entity_type_id), array_agg(net.archived), array_agg(n)
           INTO of_groups, of_types, of_archived, changes
           FROM (SELECT group_id, entity_type_id, archived, sum(n) AS n FROM (${tables}) changed
                 GROUP BY group_id, entity_type_id, archived HAVING sum(n) <> 0) net;
         IF of_groups IS NOT NULL THEN PERFORM entity_counts_apply(of_groups, of_types, of_archived, changes); END IF;
         RETURN NULL;
       END
       $$`,
    );
  }
}

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
 * The body of the statement triggers that keep the group statistics (notes §16) with the
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

/**
 * The tag links' side of tag_values (Σ purchase price and number of the entities carrying each
 * tag): a link made adds its entity's price, a link removed from an entity that stays takes it
 * away. A link removed because its entity is being deleted is accounted by the entity's own
 * BEFORE DELETE trigger, which still sees its links.
 */
const maintainTagValues = (side: 'old' | 'new'): string => {
  const sign = side === 'new' ? '1' : '-1';
  return `
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT t.group_id FROM ${side}_links l JOIN tags t ON t.id = l.tag_id)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH changed AS (
      SELECT l.tag_id, ${sign} * count(*) AS entities,
             ${sign} * coalesce(sum(e.purchase_price), 0) AS value
      FROM ${side}_links l LEFT JOIN entities e ON e.id = l.entity_id
      GROUP BY l.tag_id
    ), updated AS (
      UPDATE tag_values v SET entities = v.entities + d.entities, value = v.value + d.value
      FROM changed d WHERE v.tag_id = d.tag_id
      RETURNING v.tag_id
    )
    INSERT INTO tag_values (tag_id, entities, value)
    SELECT d.tag_id, d.entities, d.value FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.tag_id = d.tag_id)
      AND EXISTS (SELECT 1 FROM tags t WHERE t.id = d.tag_id);`;
};

/**
 * The group statistics (`GET /groups/statistics`, `/locations`, `/tags`) read sums kept by the
 * database in the transaction of every change, as the entity counts are, so each costs the same
 * at a million entities as at a hundred: entity_counts gains the value and the lifetime
 * warranties; entity_child_values keeps each parent's Σ child purchase price by child type;
 * tag_values each tag's number of entities and Σ their purchase price. The count of live
 * (dated) warranties depends on the day, so it is read from a partial index instead.
 */
export class MaintainGroupStatistics1795220400000 implements MigrationInterface {
  name = 'MaintainGroupStatistics1795220400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "entity_counts" ADD "item_value" numeric NOT NULL DEFAULT 0, ADD "lifetime_warranties" bigint NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(
      `CREATE TABLE "entity_child_values" ("parent_id" uuid NOT NULL, "entity_type_id" uuid NOT NULL, "value" numeric NOT NULL, CONSTRAINT "entity_child_values_pkey" PRIMARY KEY ("parent_id", "entity_type_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_child_values" ADD CONSTRAINT "entity_child_values_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_child_values" ADD CONSTRAINT "entity_child_values_entity_type_id_fkey" FOREIGN KEY ("entity_type_id") REFERENCES "entity_types"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_child_values_entity_type_id_idx" ON "entity_child_values" ("entity_type_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "tag_values" ("tag_id" uuid NOT NULL, "entities" bigint NOT NULL, "value" numeric NOT NULL, CONSTRAINT "tag_values_pkey" PRIMARY KEY ("tag_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "tag_values" ADD CONSTRAINT "tag_values_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "entities_live_warranty_idx" ON "entities" ("group_id", "warranty_expires")
       INCLUDE ("entity_type_id")
       WHERE NOT "archived" AND NOT "lifetime_warranty" AND "warranty_expires" IS NOT NULL`,
    );

    // The entity counts' triggers now keep every sum.
    for (const [event, sides] of [
      ['insert', ['new']],
      ['update', ['old', 'new']],
      ['delete', ['old']],
    ] as const) {
      await queryRunner.query(
        `CREATE OR REPLACE FUNCTION "entity_counts_after_${event}"() RETURNS trigger
         LANGUAGE plpgsql AS $$
         BEGIN
           ${maintainStatistics(sides)}
           RETURN NULL;
         END
         $$`,
      );
    }
    await queryRunner.query(
      `DROP FUNCTION "entity_counts_apply"(uuid[], uuid[], boolean[], bigint[])`,
    );

    for (const [event, side] of [
      ['insert', 'new'],
      ['delete', 'old'],
    ] as const) {
      await queryRunner.query(
        `CREATE FUNCTION "tag_values_after_${event}"() RETURNS trigger
         LANGUAGE plpgsql AS $$
         BEGIN
           ${maintainTagValues(side)}
           RETURN NULL;
         END
         $$`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "entity_tags_values_after_${event}" AFTER ${event.toUpperCase()} ON "entity_tags"
         REFERENCING ${side.toUpperCase()} TABLE AS ${side}_links FOR EACH STATEMENT
         EXECUTE FUNCTION tag_values_after_${event}()`,
      );
    }
    // An entity's links are removed by the cascade of its deletion, after the entity is gone:
    // its price leaves its tags' sums here, before, while the links are still there.
    await queryRunner.query(
      `CREATE FUNCTION "tag_values_before_entity_delete"() RETURNS trigger
       LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM 1 FROM groups g WHERE g.id = OLD.group_id FOR NO KEY UPDATE;
         UPDATE tag_values v SET value = v.value - OLD.purchase_price
         FROM entity_tags et WHERE et.entity_id = OLD.id AND v.tag_id = et.tag_id;
         RETURN OLD;
       END
       $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "entities_tag_values_before_delete" BEFORE DELETE ON "entities"
       FOR EACH ROW WHEN (OLD.purchase_price <> 0)
       EXECUTE FUNCTION tag_values_before_entity_delete()`,
    );

    await queryRunner.query(
      `UPDATE entity_counts c SET item_value = s.item_value, lifetime_warranties = s.lifetime_warranties
       FROM (SELECT group_id, entity_type_id, archived,
                    sum(purchase_price * quantity::numeric) AS item_value,
                    count(*) FILTER (WHERE lifetime_warranty) AS lifetime_warranties
             FROM entities GROUP BY group_id, entity_type_id, archived) s
       WHERE c.group_id = s.group_id AND c.entity_type_id = s.entity_type_id AND c.archived = s.archived`,
    );
    await queryRunner.query(
      `INSERT INTO entity_child_values (parent_id, entity_type_id, value)
       SELECT parent_id, entity_type_id, sum(purchase_price) FROM entities
       WHERE parent_id IS NOT NULL GROUP BY parent_id, entity_type_id
       HAVING sum(purchase_price) <> 0`,
    );
    await queryRunner.query(
      `INSERT INTO tag_values (tag_id, entities, value)
       SELECT et.tag_id, count(*), sum(e.purchase_price) FROM entity_tags et
       JOIN entities e ON e.id = et.entity_id GROUP BY et.tag_id`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "entities_tag_values_before_delete" ON "entities"`);
    await queryRunner.query(`DROP FUNCTION "tag_values_before_entity_delete"()`);
    for (const event of ['insert', 'delete']) {
      await queryRunner.query(`DROP TRIGGER "entity_tags_values_after_${event}" ON "entity_tags"`);
      await queryRunner.query(`DROP FUNCTION "tag_values_after_${event}"()`);
    }
    // The counts' triggers go back to counting alone.
    await createCountingFunctions(queryRunner);
    await queryRunner.query(`DROP INDEX "entities_live_warranty_idx"`);
    await queryRunner.query(`DROP TABLE "tag_values"`);
    await queryRunner.query(`DROP TABLE "entity_child_values"`);
    await queryRunner.query(
      `ALTER TABLE "entity_counts" DROP COLUMN "lifetime_warranties", DROP COLUMN "item_value"`,
    );
  }
}
