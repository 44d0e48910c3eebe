import type { DatabaseLogic } from '../../../platform/database/schema/database-logic.js';

/**
 * The counts of entities, kept by one set of statement triggers on `entities`, which net a
 * statement's rows per key and apply them after locking the changed groups' rows:
 * - `entity_counts`: per group, entity type and archived state, the number of entities, the value
 *   of the items (Σ purchase price × quantity) and the number with a lifetime warranty. Read by
 *   the total of a list narrowed only by kind and archived state and by the group statistics.
 * - `entity_child_items`: per parent and child entity type, Σ quantity of the parent's
 *   non-archived children. Read by the item count of every location in an entity view and the
 *   tree of locations.
 * - `entity_child_values`: per parent and child entity type, Σ purchase price of the parent's
 *   direct children. Read by the location totals of the statistics.
 * Without them a list's total, the statistics and the view of a location with many items would
 * grow with the inventory (docs/derived-data.md has the measurements).
 */
export const ENTITY_COUNTS: DatabaseLogic = {
  tables: ['entity_counts', 'entity_child_items', 'entity_child_values'],
  statements: [
    `CREATE TABLE entity_counts (
  group_id uuid NOT NULL,
  entity_type_id uuid NOT NULL,
  archived boolean NOT NULL,
  entities bigint NOT NULL,
  item_value numeric DEFAULT 0 NOT NULL,
  lifetime_warranties bigint DEFAULT 0 NOT NULL,
  CONSTRAINT entity_counts_pkey PRIMARY KEY (group_id, entity_type_id, archived),
  CONSTRAINT entity_counts_entity_type_id_fkey FOREIGN KEY (entity_type_id) REFERENCES entity_types(id) ON DELETE CASCADE,
  CONSTRAINT entity_counts_group_id_fkey FOREIGN KEY (group_id) REFERENCES groups(id) ON DELETE CASCADE
)`,
    `CREATE INDEX entity_counts_entity_type_id_idx ON public.entity_counts USING btree (entity_type_id)`,
    `CREATE TABLE entity_child_items (
  parent_id uuid NOT NULL,
  entity_type_id uuid NOT NULL,
  quantity numeric NOT NULL,
  CONSTRAINT entity_child_items_pkey PRIMARY KEY (parent_id, entity_type_id),
  CONSTRAINT entity_child_items_entity_type_id_fkey FOREIGN KEY (entity_type_id) REFERENCES entity_types(id) ON DELETE CASCADE,
  CONSTRAINT entity_child_items_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES entities(id) ON DELETE CASCADE
)`,
    `CREATE INDEX entity_child_items_entity_type_id_idx ON public.entity_child_items USING btree (entity_type_id)`,
    `CREATE TABLE entity_child_values (
  parent_id uuid NOT NULL,
  entity_type_id uuid NOT NULL,
  value numeric NOT NULL,
  CONSTRAINT entity_child_values_pkey PRIMARY KEY (parent_id, entity_type_id),
  CONSTRAINT entity_child_values_entity_type_id_fkey FOREIGN KEY (entity_type_id) REFERENCES entity_types(id) ON DELETE CASCADE,
  CONSTRAINT entity_child_values_parent_id_fkey FOREIGN KEY (parent_id) REFERENCES entities(id) ON DELETE CASCADE
)`,
    `CREATE INDEX entity_child_values_entity_type_id_idx ON public.entity_child_values USING btree (entity_type_id)`,
    `CREATE OR REPLACE FUNCTION public.entity_counts_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT group_id FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
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
      SELECT parent_id, entity_type_id, sum(quantity) AS quantity FROM (SELECT parent_id, entity_type_id, quantity::numeric * 1 AS quantity
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
    $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_counts_after_update()
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
    $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_counts_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT group_id FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities) c
      GROUP BY id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
               lifetime_warranty
      HAVING sum(sign) <> 0)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH net AS (
      SELECT group_id, entity_type_id, archived, sum(sign) AS entities,
             sum(sign * purchase_price * quantity::numeric) AS item_value,
             sum(sign) FILTER (WHERE lifetime_warranty) AS lifetime_warranties
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities) c GROUP BY group_id, entity_type_id, archived
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
                lifetime_warranty, -1 AS sign FROM old_entities) c WHERE parent_id IS NOT NULL
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
         FROM old_entities WHERE parent_id IS NOT NULL AND NOT archived) c
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
    $function$`,
    `CREATE TRIGGER entities_counts_after_insert AFTER INSERT ON public.entities REFERENCING NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION entity_counts_after_insert()`,
    `CREATE TRIGGER entities_counts_after_update AFTER UPDATE ON public.entities REFERENCING OLD TABLE AS old_entities NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION entity_counts_after_update()`,
    `CREATE TRIGGER entities_counts_after_delete AFTER DELETE ON public.entities REFERENCING OLD TABLE AS old_entities FOR EACH STATEMENT EXECUTE FUNCTION entity_counts_after_delete()`,
  ],
};
