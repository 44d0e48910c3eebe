import type { DatabaseLogic } from '../../platform/database/schema/database-logic.js';

/**
 * `tag_match_counts`: per tag, entity type and archived state, the number of entities in
 * `tag_matches`, kept by statement triggers on that table. A page of a list narrowed by one tag
 * takes its total from here instead of counting the tag's matches.
 */
export const TAG_MATCH_COUNTS: DatabaseLogic = {
  tables: ['tag_match_counts'],
  statements: [
    `CREATE TABLE tag_match_counts (
  tag_id uuid NOT NULL,
  entity_type_id uuid NOT NULL,
  archived boolean NOT NULL,
  entities bigint NOT NULL,
  CONSTRAINT tag_match_counts_tag_id_fkey FOREIGN KEY (tag_id) REFERENCES tags(id) ON DELETE CASCADE
)`,
    `CREATE INDEX tag_match_counts_tag_id_idx ON public.tag_match_counts USING btree (tag_id)`,
    `CREATE OR REPLACE FUNCTION public.tag_match_counts_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         DECLARE crowded uuid;
         BEGIN
           INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
           SELECT c.tag_id, c.entity_type_id, c.archived, sum(c.n) FROM (SELECT tag_id, entity_type_id, archived, 1 AS n FROM new_matches) c
           WHERE EXISTS (SELECT 1 FROM tags t WHERE t.id = c.tag_id)
           GROUP BY c.tag_id, c.entity_type_id, c.archived HAVING sum(c.n) <> 0;
           FOR crowded IN
             SELECT k.tag_id FROM tag_match_counts k
             WHERE k.tag_id IN (SELECT c.tag_id FROM (SELECT tag_id, entity_type_id, archived, 1 AS n FROM new_matches) c)
             GROUP BY k.tag_id HAVING count(*) > 32
           LOOP
             CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtextextended('tag match counts ' || crowded, 0));
             WITH gone AS (
               DELETE FROM tag_match_counts WHERE tag_id = crowded
               RETURNING entity_type_id, archived, entities
             )
             INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
             SELECT crowded, entity_type_id, archived, sum(entities) FROM gone
             GROUP BY entity_type_id, archived HAVING sum(entities) <> 0;
           END LOOP;
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.tag_match_counts_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         DECLARE crowded uuid;
         BEGIN
           INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
           SELECT c.tag_id, c.entity_type_id, c.archived, sum(c.n) FROM (SELECT tag_id, entity_type_id, archived, -1 AS n FROM old_matches UNION ALL SELECT tag_id, entity_type_id, archived, 1 AS n FROM new_matches) c
           WHERE EXISTS (SELECT 1 FROM tags t WHERE t.id = c.tag_id)
           GROUP BY c.tag_id, c.entity_type_id, c.archived HAVING sum(c.n) <> 0;
           FOR crowded IN
             SELECT k.tag_id FROM tag_match_counts k
             WHERE k.tag_id IN (SELECT c.tag_id FROM (SELECT tag_id, entity_type_id, archived, -1 AS n FROM old_matches UNION ALL SELECT tag_id, entity_type_id, archived, 1 AS n FROM new_matches) c)
             GROUP BY k.tag_id HAVING count(*) > 32
           LOOP
             CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtextextended('tag match counts ' || crowded, 0));
             WITH gone AS (
               DELETE FROM tag_match_counts WHERE tag_id = crowded
               RETURNING entity_type_id, archived, entities
             )
             INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
             SELECT crowded, entity_type_id, archived, sum(entities) FROM gone
             GROUP BY entity_type_id, archived HAVING sum(entities) <> 0;
           END LOOP;
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.tag_match_counts_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         DECLARE crowded uuid;
         BEGIN
           INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
           SELECT c.tag_id, c.entity_type_id, c.archived, sum(c.n) FROM (SELECT tag_id, entity_type_id, archived, -1 AS n FROM old_matches) c
           WHERE EXISTS (SELECT 1 FROM tags t WHERE t.id = c.tag_id)
           GROUP BY c.tag_id, c.entity_type_id, c.archived HAVING sum(c.n) <> 0;
           FOR crowded IN
             SELECT k.tag_id FROM tag_match_counts k
             WHERE k.tag_id IN (SELECT c.tag_id FROM (SELECT tag_id, entity_type_id, archived, -1 AS n FROM old_matches) c)
             GROUP BY k.tag_id HAVING count(*) > 32
           LOOP
             CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtextextended('tag match counts ' || crowded, 0));
             WITH gone AS (
               DELETE FROM tag_match_counts WHERE tag_id = crowded
               RETURNING entity_type_id, archived, entities
             )
             INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
             SELECT crowded, entity_type_id, archived, sum(entities) FROM gone
             GROUP BY entity_type_id, archived HAVING sum(entities) <> 0;
           END LOOP;
           RETURN NULL;
         END
         $function$`,
    `CREATE TRIGGER tag_matches_counts_after_insert AFTER INSERT ON public.tag_matches REFERENCING NEW TABLE AS new_matches FOR EACH STATEMENT EXECUTE FUNCTION tag_match_counts_after_insert()`,
    `CREATE TRIGGER tag_matches_counts_after_update AFTER UPDATE ON public.tag_matches REFERENCING OLD TABLE AS old_matches NEW TABLE AS new_matches FOR EACH STATEMENT EXECUTE FUNCTION tag_match_counts_after_update()`,
    `CREATE TRIGGER tag_matches_counts_after_delete AFTER DELETE ON public.tag_matches REFERENCING OLD TABLE AS old_matches FOR EACH STATEMENT EXECUTE FUNCTION tag_match_counts_after_delete()`,
  ],
};
