import type { DatabaseLogic } from '../../../platform/database/schema/database-logic.js';

/**
 * `location_versions`: per group, two numbers that grow with every committed change: `tree` (the
 * locations: created, renamed, moved, deleted, retyped) and `totals` (the sums in
 * `entity_child_values`). The response cache of the tree of locations and of the location totals
 * keeps one response per version and sends it, with the version as its ETag, for as long as the
 * version stays; without the versions nothing could be kept.
 */
export const LOCATION_VERSIONS: DatabaseLogic = {
  tables: ['location_versions'],
  statements: [
    `CREATE TABLE location_versions (
  group_id uuid NOT NULL,
  tree bigint DEFAULT 0 NOT NULL,
  totals bigint DEFAULT 0 NOT NULL,
  CONSTRAINT location_versions_pkey PRIMARY KEY (group_id),
  CONSTRAINT location_versions_group_id_fkey FOREIGN KEY (group_id) REFERENCES groups(id) ON DELETE CASCADE
)`,
    `CREATE OR REPLACE FUNCTION public.location_versions_raise(of_groups uuid[], version text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
       DECLARE tree_step int := CASE WHEN version = 'tree' THEN 1 ELSE 0 END;
       BEGIN
         PERFORM 1 FROM groups g WHERE g.id = ANY(of_groups) ORDER BY g.id FOR NO KEY UPDATE;
         INSERT INTO location_versions AS v (group_id, tree, totals)
           SELECT g.id, tree_step, 1 - tree_step FROM groups g WHERE g.id = ANY(of_groups)
           ORDER BY g.id
           ON CONFLICT (group_id)
           DO UPDATE SET tree = v.tree + tree_step, totals = v.totals + 1 - tree_step;
       END
       $function$`,
    `CREATE OR REPLACE FUNCTION public.location_tree_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE of_groups uuid[];
  BEGIN
    SELECT array_agg(DISTINCT n.group_id) FROM new_entities n
    JOIN entity_types t ON t.id = n.entity_type_id WHERE t.is_location INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, 'tree'); END IF;
    RETURN NULL;
  END
  $function$`,
    `CREATE OR REPLACE FUNCTION public.location_tree_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE of_groups uuid[];
  BEGIN
    SELECT array_agg(DISTINCT g) FROM (
      SELECT o.group_id AS old_group, n.group_id AS new_group FROM old_entities o
      JOIN new_entities n ON n.id = o.id
      WHERE (o.group_id, o.name, o.parent_id, o.entity_type_id)
              IS DISTINCT FROM (n.group_id, n.name, n.parent_id, n.entity_type_id)
        AND EXISTS (SELECT 1 FROM entity_types t
                    WHERE t.id IN (o.entity_type_id, n.entity_type_id) AND t.is_location)
    ) changed CROSS JOIN LATERAL (VALUES (changed.old_group), (changed.new_group)) AS side(g) INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, 'tree'); END IF;
    RETURN NULL;
  END
  $function$`,
    `CREATE OR REPLACE FUNCTION public.location_tree_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE of_groups uuid[];
  BEGIN
    SELECT array_agg(DISTINCT o.group_id) FROM old_entities o
    JOIN entity_types t ON t.id = o.entity_type_id WHERE t.is_location INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, 'tree'); END IF;
    RETURN NULL;
  END
  $function$`,
    `CREATE OR REPLACE FUNCTION public.location_tree_after_type_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE of_groups uuid[];
  BEGIN
    SELECT array_agg(DISTINCT n.group_id) FROM old_types o
         JOIN new_types n ON n.id = o.id WHERE o.is_location IS DISTINCT FROM n.is_location INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, 'tree'); END IF;
    RETURN NULL;
  END
  $function$`,
    `CREATE OR REPLACE FUNCTION public.location_totals_after_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE of_groups uuid[];
  BEGIN
    SELECT array_agg(DISTINCT p.group_id) FROM changed_values v
         JOIN entities p ON p.id = v.parent_id INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, 'totals'); END IF;
    RETURN NULL;
  END
  $function$`,
    `CREATE TRIGGER entities_location_tree_after_insert AFTER INSERT ON public.entities REFERENCING NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION location_tree_after_insert()`,
    `CREATE TRIGGER entities_location_tree_after_update AFTER UPDATE ON public.entities REFERENCING OLD TABLE AS old_entities NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION location_tree_after_update()`,
    `CREATE TRIGGER entities_location_tree_after_delete AFTER DELETE ON public.entities REFERENCING OLD TABLE AS old_entities FOR EACH STATEMENT EXECUTE FUNCTION location_tree_after_delete()`,
    `CREATE TRIGGER entity_types_location_tree_after_update AFTER UPDATE ON public.entity_types REFERENCING OLD TABLE AS old_types NEW TABLE AS new_types FOR EACH STATEMENT EXECUTE FUNCTION location_tree_after_type_update()`,
    `CREATE TRIGGER entity_child_values_location_totals_after_insert AFTER INSERT ON public.entity_child_values REFERENCING NEW TABLE AS changed_values FOR EACH STATEMENT EXECUTE FUNCTION location_totals_after_change()`,
    `CREATE TRIGGER entity_child_values_location_totals_after_update AFTER UPDATE ON public.entity_child_values REFERENCING NEW TABLE AS changed_values FOR EACH STATEMENT EXECUTE FUNCTION location_totals_after_change()`,
  ],
};
