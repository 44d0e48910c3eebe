import type { DatabaseLogic } from '../../platform/database/schema/database-logic.js';

/**
 * `tag_matches`: each tag with every entity that carries it or one of its descendant tags, with
 * the entity's type, archived state and name (indexed in name order), kept as links are added and
 * removed, entities renamed, retyped or archived and tags moved in the tree. A list narrowed by a
 * tag walks its set in name order instead of expanding descendant tags and sorting the matches.
 * The upkeep takes the group's "tag tree" advisory lock shared (`'tag tree ' || group_id`; the
 * tags module takes it exclusive while it changes the tree), so no tag moves under it.
 */
export const TAG_MATCHES: DatabaseLogic = {
  tables: ['tag_matches'],
  statements: [
    `CREATE TABLE tag_matches (
  entity_id uuid NOT NULL,
  tag_id uuid NOT NULL,
  entity_type_id uuid NOT NULL,
  archived boolean NOT NULL,
  name character varying(255) NOT NULL,
  CONSTRAINT tag_matches_pkey PRIMARY KEY (entity_id, tag_id),
  CONSTRAINT tag_matches_tag_id_fkey FOREIGN KEY (tag_id) REFERENCES tags(id) ON DELETE CASCADE
)`,
    `CREATE INDEX tag_matches_name_order_idx ON public.tag_matches USING btree (tag_id, lower(((name)::text COLLATE "C")), name COLLATE "C", entity_id) INCLUDE (entity_type_id, archived)`,
    `CREATE OR REPLACE FUNCTION public.tag_matches_refresh(of_entities uuid[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
       BEGIN
         IF cardinality(of_entities) = 0 THEN RETURN; END IF;
         IF coalesce(current_setting('trove.tag_tree_locked', true), '') = '' THEN
           PERFORM 1 FROM entities e WHERE e.id = ANY(of_entities) ORDER BY e.id FOR NO KEY UPDATE;
           PERFORM pg_advisory_xact_lock_shared(hashtextextended('tag tree ' || g.group_id, 0))
             FROM (SELECT DISTINCT e.group_id FROM entities e WHERE e.id = ANY(of_entities) ORDER BY 1) g;
         END IF;
         WITH RECURSIVE up(entity_id, tag_id, depth) AS (
    SELECT entity_id, tag_id, 0 FROM (SELECT entity_id, tag_id FROM entity_tags WHERE entity_id = ANY(of_entities)) links
    UNION
    SELECT u.entity_id, t.parent_id, u.depth + 1 FROM up u JOIN tags t ON t.id = u.tag_id
    WHERE t.parent_id IS NOT NULL AND u.depth < 1000
  ),
         wanted AS (SELECT DISTINCT entity_id, tag_id FROM up),
         removed AS (
           DELETE FROM tag_matches m WHERE m.entity_id = ANY(of_entities)
             AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.entity_id = m.entity_id AND w.tag_id = m.tag_id)
         )
         INSERT INTO tag_matches (entity_id, tag_id, entity_type_id, archived, name)
  SELECT DISTINCT up.entity_id, up.tag_id, e.entity_type_id, e.archived, e.name
  FROM up JOIN entities e ON e.id = up.entity_id
  ORDER BY 1, 2
  ON CONFLICT (entity_id, tag_id) DO NOTHING;
       END
       $function$`,
    `CREATE OR REPLACE FUNCTION public.tag_matches_after_link_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         IF NOT EXISTS (SELECT 1 FROM changed_links) THEN RETURN NULL; END IF;
         IF coalesce(current_setting('trove.tag_tree_locked', true), '') = '' THEN
           PERFORM pg_advisory_xact_lock_shared(hashtextextended('tag tree ' || g.group_id, 0))
             FROM (SELECT DISTINCT t.group_id FROM changed_links l JOIN tags t ON t.id = l.tag_id ORDER BY 1) g;
         END IF;
         WITH RECURSIVE up(entity_id, tag_id, depth) AS (
    SELECT entity_id, tag_id, 0 FROM changed_links
    UNION
    SELECT u.entity_id, t.parent_id, u.depth + 1 FROM up u JOIN tags t ON t.id = u.tag_id
    WHERE t.parent_id IS NOT NULL AND u.depth < 1000
  ) INSERT INTO tag_matches (entity_id, tag_id, entity_type_id, archived, name)
  SELECT DISTINCT up.entity_id, up.tag_id, e.entity_type_id, e.archived, e.name
  FROM up JOIN entities e ON e.id = up.entity_id
  ORDER BY 1, 2
  ON CONFLICT (entity_id, tag_id) DO NOTHING;
         RETURN NULL;
       END
       $function$`,
    `CREATE OR REPLACE FUNCTION public.tag_matches_after_link_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         PERFORM tag_matches_refresh(ARRAY(SELECT DISTINCT entity_id FROM changed_links));
         RETURN NULL;
       END
       $function$`,
    `CREATE OR REPLACE FUNCTION public.tag_matches_after_entity_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         IF coalesce(current_setting('trove.tag_tree_locked', true), '') = '' THEN PERFORM pg_advisory_xact_lock_shared(hashtextextended('tag tree ' || NEW.group_id, 0)); END IF;
         UPDATE tag_matches SET entity_type_id = NEW.entity_type_id, archived = NEW.archived, name = NEW.name
         WHERE entity_id = NEW.id;
         RETURN NULL;
       END
       $function$`,
    `CREATE OR REPLACE FUNCTION public.tag_matches_after_tag_move()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         PERFORM tag_matches_refresh(ARRAY(SELECT m.entity_id FROM tag_matches m WHERE m.tag_id = NEW.id));
         RETURN NULL;
       END
       $function$`,
    `CREATE TRIGGER entity_tags_matches_after_insert AFTER INSERT ON public.entity_tags REFERENCING NEW TABLE AS changed_links FOR EACH STATEMENT EXECUTE FUNCTION tag_matches_after_link_insert()`,
    `CREATE TRIGGER entity_tags_matches_after_delete AFTER DELETE ON public.entity_tags REFERENCING OLD TABLE AS changed_links FOR EACH STATEMENT EXECUTE FUNCTION tag_matches_after_link_delete()`,
    `CREATE TRIGGER entities_tag_matches_after_update AFTER UPDATE OF name, archived, entity_type_id ON public.entities FOR EACH ROW WHEN ((((old.name)::text IS DISTINCT FROM (new.name)::text) OR (old.archived IS DISTINCT FROM new.archived) OR (old.entity_type_id IS DISTINCT FROM new.entity_type_id))) EXECUTE FUNCTION tag_matches_after_entity_update()`,
    `CREATE TRIGGER tags_matches_after_move AFTER UPDATE OF parent_id ON public.tags FOR EACH ROW WHEN ((old.parent_id IS DISTINCT FROM new.parent_id)) EXECUTE FUNCTION tag_matches_after_tag_move()`,
  ],
};
