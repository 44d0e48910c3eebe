import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The groups (`uuid[]`) whose tree of locations a statement on `entities` changed: a location
 * inserted or deleted, or a row renamed, moved or given another type (or group) while a
 * location before or after. Items never change the tree of locations.
 */
const TREE_CHANGED_BY = {
  insert: `SELECT array_agg(DISTINCT n.group_id) FROM new_entities n
    JOIN entity_types t ON t.id = n.entity_type_id WHERE t.is_location`,
  delete: `SELECT array_agg(DISTINCT o.group_id) FROM old_entities o
    JOIN entity_types t ON t.id = o.entity_type_id WHERE t.is_location`,
  update: `SELECT array_agg(DISTINCT g) FROM (
      SELECT o.group_id AS old_group, n.group_id AS new_group FROM old_entities o
      JOIN new_entities n ON n.id = o.id
      WHERE (o.group_id, o.name, o.parent_id, o.entity_type_id)
              IS DISTINCT FROM (n.group_id, n.name, n.parent_id, n.entity_type_id)
        AND EXISTS (SELECT 1 FROM entity_types t
                    WHERE t.id IN (o.entity_type_id, n.entity_type_id) AND t.is_location)
    ) changed CROSS JOIN LATERAL (VALUES (changed.old_group), (changed.new_group)) AS side(g)`,
} as const;

/** The transition tables each event on `entities` sees. */
const EVENT_SIDES = {
  insert: ['new'],
  update: ['old', 'new'],
  delete: ['old'],
} as const;

/** A trigger function that raises `version` of the groups `changedGroups` selects. */
const raising = (changedGroups: string, version: 'tree' | 'totals'): string => `RETURNS trigger
  LANGUAGE plpgsql AS $$
  DECLARE of_groups uuid[];
  BEGIN
    ${changedGroups} INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, '${version}'); END IF;
    RETURN NULL;
  END
  $$`;

/**
 * `location_versions`: per group, two numbers that grow with every committed change of what
 * its locations look like, so that an answer built from them once can be sent again for as long
 * as they stay the same, on any instance, by reading one row:
 * - `tree`, the tree of locations: a location created, renamed, moved, deleted or given another
 *   type, or a type that becomes or stops being a location type (statement triggers on
 *   `entities` and `entity_types`);
 * - `totals`, the sums of purchase prices kept per parent (`entity_child_values`, which the
 *   location totals of the statistics read): a row of them inserted or changed. Such a row goes
 *   only with its parent, whose deletion raises `tree` when the parent is a location.
 *
 * Like the entity counts, a raise locks the group row first and then the version row, so writers
 * never wait on each other's version rows in different orders, and two raises of one group are
 * one after the other: each committed change has numbers of its own, and a reader that sees a
 * number sees every change numbered before it. A group without a row is at 0 and 0; a group
 * being deleted gets no row (only groups still there are raised).
 */
export class MaintainLocationVersions1795220760000 implements MigrationInterface {
  name = 'MaintainLocationVersions1795220760000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "location_versions" ("group_id" uuid NOT NULL, "tree" bigint NOT NULL DEFAULT 0, "totals" bigint NOT NULL DEFAULT 0, CONSTRAINT "location_versions_pkey" PRIMARY KEY ("group_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "location_versions" ADD CONSTRAINT "location_versions_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "location_versions_raise"(of_groups uuid[], version text) RETURNS void
       LANGUAGE plpgsql AS $$
       DECLARE tree_step int := CASE WHEN version = 'tree' THEN 1 ELSE 0 END;
       BEGIN
         PERFORM 1 FROM groups g WHERE g.id = ANY(of_groups) ORDER BY g.id FOR NO KEY UPDATE;
         INSERT INTO location_versions AS v (group_id, tree, totals)
           SELECT g.id, tree_step, 1 - tree_step FROM groups g WHERE g.id = ANY(of_groups)
           ORDER BY g.id
           ON CONFLICT (group_id)
           DO UPDATE SET tree = v.tree + tree_step, totals = v.totals + 1 - tree_step;
       END
       $$`,
    );
    for (const event of ['insert', 'update', 'delete'] as const) {
      await queryRunner.query(
        `CREATE FUNCTION "location_tree_after_${event}"() ${raising(TREE_CHANGED_BY[event], 'tree')}`,
      );
      const referencing = EVENT_SIDES[event]
        .map((side) => `${side.toUpperCase()} TABLE AS ${side}_entities`)
        .join(' ');
      await queryRunner.query(
        `CREATE TRIGGER "entities_location_tree_after_${event}" AFTER ${event.toUpperCase()} ON "entities"
         REFERENCING ${referencing} FOR EACH STATEMENT
         EXECUTE FUNCTION location_tree_after_${event}()`,
      );
    }
    await queryRunner.query(
      `CREATE FUNCTION "location_tree_after_type_update"() ${raising(
        `SELECT array_agg(DISTINCT n.group_id) FROM old_types o
         JOIN new_types n ON n.id = o.id WHERE o.is_location IS DISTINCT FROM n.is_location`,
        'tree',
      )}`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "entity_types_location_tree_after_update" AFTER UPDATE ON "entity_types"
       REFERENCING OLD TABLE AS old_types NEW TABLE AS new_types FOR EACH STATEMENT
       EXECUTE FUNCTION location_tree_after_type_update()`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "location_totals_after_change"() ${raising(
        `SELECT array_agg(DISTINCT p.group_id) FROM changed_values v
         JOIN entities p ON p.id = v.parent_id`,
        'totals',
      )}`,
    );
    for (const event of ['insert', 'update'] as const) {
      await queryRunner.query(
        `CREATE TRIGGER "entity_child_values_location_totals_after_${event}" AFTER ${event.toUpperCase()} ON "entity_child_values"
         REFERENCING NEW TABLE AS changed_values FOR EACH STATEMENT
         EXECUTE FUNCTION location_totals_after_change()`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of ['insert', 'update']) {
      await queryRunner.query(
        `DROP TRIGGER "entity_child_values_location_totals_after_${event}" ON "entity_child_values"`,
      );
    }
    await queryRunner.query(`DROP FUNCTION "location_totals_after_change"()`);
    await queryRunner.query(
      `DROP TRIGGER "entity_types_location_tree_after_update" ON "entity_types"`,
    );
    await queryRunner.query(`DROP FUNCTION "location_tree_after_type_update"()`);
    for (const event of ['insert', 'update', 'delete']) {
      await queryRunner.query(`DROP TRIGGER "entities_location_tree_after_${event}" ON "entities"`);
      await queryRunner.query(`DROP FUNCTION "location_tree_after_${event}"()`);
    }
    await queryRunner.query(`DROP FUNCTION "location_versions_raise"(uuid[], text)`);
    await queryRunner.query(`DROP TABLE "location_versions"`);
  }
}
