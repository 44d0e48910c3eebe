import type { DatabaseLogic } from '../../platform/database/schema/database-logic.js';

/**
 * `tag_values`: per tag, how many entities carry it and Σ their purchase price, kept as links to
 * tags are added and removed, entities deleted and their prices changed. Read by the tag totals
 * of the group statistics, which would otherwise sum every link of the group per request.
 */
export const TAG_VALUES: DatabaseLogic = {
  tables: ['tag_values'],
  statements: [
    `CREATE TABLE tag_values (
  tag_id uuid NOT NULL,
  entities bigint NOT NULL,
  value numeric NOT NULL,
  CONSTRAINT tag_values_pkey PRIMARY KEY (tag_id),
  CONSTRAINT tag_values_tag_id_fkey FOREIGN KEY (tag_id) REFERENCES tags(id) ON DELETE CASCADE
)`,
    `CREATE OR REPLACE FUNCTION public.tag_values_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT t.group_id FROM new_links l JOIN tags t ON t.id = l.tag_id)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH changed AS (
      SELECT l.tag_id, 1 * count(*) AS entities,
             1 * coalesce(sum(e.purchase_price), 0) AS value
      FROM new_links l LEFT JOIN entities e ON e.id = l.entity_id
      GROUP BY l.tag_id
    ), updated AS (
      UPDATE tag_values v SET entities = v.entities + d.entities, value = v.value + d.value
      FROM changed d WHERE v.tag_id = d.tag_id
      RETURNING v.tag_id
    )
    INSERT INTO tag_values (tag_id, entities, value)
    SELECT d.tag_id, d.entities, d.value FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.tag_id = d.tag_id)
      AND EXISTS (SELECT 1 FROM tags t WHERE t.id = d.tag_id);
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.tag_values_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT t.group_id FROM old_links l JOIN tags t ON t.id = l.tag_id)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH changed AS (
      SELECT l.tag_id, -1 * count(*) AS entities,
             -1 * coalesce(sum(e.purchase_price), 0) AS value
      FROM old_links l LEFT JOIN entities e ON e.id = l.entity_id
      GROUP BY l.tag_id
    ), updated AS (
      UPDATE tag_values v SET entities = v.entities + d.entities, value = v.value + d.value
      FROM changed d WHERE v.tag_id = d.tag_id
      RETURNING v.tag_id
    )
    INSERT INTO tag_values (tag_id, entities, value)
    SELECT d.tag_id, d.entities, d.value FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.tag_id = d.tag_id)
      AND EXISTS (SELECT 1 FROM tags t WHERE t.id = d.tag_id);
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.tag_values_before_entity_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         PERFORM 1 FROM groups g WHERE g.id = OLD.group_id FOR NO KEY UPDATE;
         UPDATE tag_values v SET value = v.value - OLD.purchase_price
         FROM entity_tags et WHERE et.entity_id = OLD.id AND v.tag_id = et.tag_id;
         RETURN OLD;
       END
       $function$`,
    `CREATE TRIGGER entity_tags_values_after_insert AFTER INSERT ON public.entity_tags REFERENCING NEW TABLE AS new_links FOR EACH STATEMENT EXECUTE FUNCTION tag_values_after_insert()`,
    `CREATE TRIGGER entity_tags_values_after_delete AFTER DELETE ON public.entity_tags REFERENCING OLD TABLE AS old_links FOR EACH STATEMENT EXECUTE FUNCTION tag_values_after_delete()`,
    `CREATE TRIGGER entities_tag_values_before_delete BEFORE DELETE ON public.entities FOR EACH ROW WHEN ((old.purchase_price <> (0)::numeric)) EXECUTE FUNCTION tag_values_before_entity_delete()`,
    `CREATE OR REPLACE FUNCTION public.tag_values_after_entity_update()
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
$function$`,
    `CREATE TRIGGER entities_tag_values_after_update AFTER UPDATE ON public.entities REFERENCING OLD TABLE AS old_entities NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION tag_values_after_entity_update()`,
  ],
};
