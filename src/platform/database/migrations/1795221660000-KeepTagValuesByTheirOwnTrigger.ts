import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `tag_values` gets a trigger function of its own for a changed purchase price
 * (`tag_values_after_entity_update`, on `entities`), which `entity_counts_after_update` did until
 * now beside the counts, so that everything that writes `tag_values` is in one place
 * (`inventory/tags/tag-values.schema.ts`). It fires after the counts' trigger (triggers fire in
 * name order), under the lock of the changed groups that trigger takes, as the update did before.
 */
export class KeepTagValuesByTheirOwnTrigger1795221660000 implements MigrationInterface {
  name = 'KeepTagValuesByTheirOwnTrigger1795221660000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE OR REPLACE FUNCTION public.entity_counts_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT group_id FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities UNION ALL SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c
      GROUP BY id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
               lifetime_warranty
      HAVING sum(sign) <> 0)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH net AS (
      SELECT group_id, entity_type_id, archived, sum(sign) AS entities,
             sum(sign * purchase_price * quantity::numeric) AS item_value,
             sum(sign) FILTER (WHERE lifetime_warranty) AS lifetime_warranties
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities UNION ALL SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c GROUP BY group_id, entity_type_id, archived
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
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities UNION ALL SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c WHERE parent_id IS NOT NULL
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
      
    WITH changed AS (
      SELECT parent_id, entity_type_id, sum(quantity) AS quantity FROM (SELECT parent_id, entity_type_id, quantity::numeric * -1 AS quantity
         FROM old_entities WHERE parent_id IS NOT NULL AND NOT archived UNION ALL SELECT parent_id, entity_type_id, quantity::numeric * 1 AS quantity
         FROM new_entities WHERE parent_id IS NOT NULL AND NOT archived) c
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
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);
      RETURN NULL;
    END
    $function$`);
    await queryRunner.query(`CREATE OR REPLACE FUNCTION public.tag_values_after_entity_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- After entity_counts_after_update (the triggers fire in name order), under its lock of the
  -- changed entities' groups.
  UPDATE tag_values v SET value = v.value + d.value
  FROM (SELECT et.tag_id, sum(n.purchase_price - o.purchase_price) AS value
        FROM new_entities n JOIN old_entities o ON o.id = n.id
        JOIN entity_tags et ON et.entity_id = n.id
        WHERE n.purchase_price <> o.purchase_price GROUP BY et.tag_id) d
  WHERE v.tag_id = d.tag_id;
  RETURN NULL;
END
$function$`);
    await queryRunner.query(
      `CREATE TRIGGER entities_tag_values_after_update AFTER UPDATE ON public.entities REFERENCING OLD TABLE AS old_entities NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION tag_values_after_entity_update()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER entities_tag_values_after_update ON entities');
    await queryRunner.query('DROP FUNCTION tag_values_after_entity_update()');
    await queryRunner.query(`CREATE OR REPLACE FUNCTION public.entity_counts_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT group_id FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities UNION ALL SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c
      GROUP BY id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
               lifetime_warranty
      HAVING sum(sign) <> 0)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH net AS (
      SELECT group_id, entity_type_id, archived, sum(sign) AS entities,
             sum(sign * purchase_price * quantity::numeric) AS item_value,
             sum(sign) FILTER (WHERE lifetime_warranty) AS lifetime_warranties
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities UNION ALL SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c GROUP BY group_id, entity_type_id, archived
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
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities UNION ALL SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c WHERE parent_id IS NOT NULL
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
    
    UPDATE tag_values v SET value = v.value + d.value
    FROM (SELECT et.tag_id, sum(n.purchase_price - o.purchase_price) AS value
          FROM new_entities n JOIN old_entities o ON o.id = n.id
          JOIN entity_tags et ON et.entity_id = n.id
          WHERE n.purchase_price <> o.purchase_price GROUP BY et.tag_id) d
    WHERE v.tag_id = d.tag_id;
      
    WITH changed AS (
      SELECT parent_id, entity_type_id, sum(quantity) AS quantity FROM (SELECT parent_id, entity_type_id, quantity::numeric * -1 AS quantity
         FROM old_entities WHERE parent_id IS NOT NULL AND NOT archived UNION ALL SELECT parent_id, entity_type_id, quantity::numeric * 1 AS quantity
         FROM new_entities WHERE parent_id IS NOT NULL AND NOT archived) c
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
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);
      RETURN NULL;
    END
    $function$`);
  }
}
