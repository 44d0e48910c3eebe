import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The groups (`uuid[]`) whose tree of locations a statement on `entities` changed: a location
 * inserted or deleted, or a row renamed, moved or given another type (or group) while a
 * location before or after. Items never change the tree of locations.
 */
const CHANGED_BY = {
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

/**
 * `location_tree_versions`: a number per group that grows with every committed change of its
 * tree of locations, so that a tree built once can be served again for as long as the number
 * stays the same, on any instance, by reading one row.
 *
 * Statement triggers on `entities` and `entity_types` (a type that becomes or stops being a
 * location type) raise it in the transaction of the change. Like the entity counts, a raise
 * locks the group row first and then the version row, so writers never wait on each other's
 * version rows in different orders, and two raises of one group are one after the other: each
 * committed change has a number of its own, and a reader that sees a number sees every change
 * numbered before it. A group without a row is at 0; a group being deleted gets no row (only
 * groups still there are raised).
 */
export class MaintainLocationTreeVersions1795220760000 implements MigrationInterface {
  name = 'MaintainLocationTreeVersions1795220760000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "location_tree_versions" ("group_id" uuid NOT NULL, "version" bigint NOT NULL, CONSTRAINT "location_tree_versions_pkey" PRIMARY KEY ("group_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "location_tree_versions" ADD CONSTRAINT "location_tree_versions_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "location_tree_versions_raise"(of_groups uuid[]) RETURNS void
       LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM 1 FROM groups g WHERE g.id = ANY(of_groups) ORDER BY g.id FOR NO KEY UPDATE;
         INSERT INTO location_tree_versions AS v (group_id, version)
           SELECT g.id, 1 FROM groups g WHERE g.id = ANY(of_groups) ORDER BY g.id
           ON CONFLICT (group_id) DO UPDATE SET version = v.version + 1;
       END
       $$`,
    );
    for (const event of ['insert', 'update', 'delete'] as const) {
      await queryRunner.query(
        `CREATE FUNCTION "location_tree_versions_after_${event}"() RETURNS trigger
         LANGUAGE plpgsql AS $$
         DECLARE of_groups uuid[];
         BEGIN
           ${CHANGED_BY[event]} INTO of_groups;
           IF of_groups IS NOT NULL THEN PERFORM location_tree_versions_raise(of_groups); END IF;
           RETURN NULL;
         END
         $$`,
      );
      const referencing = EVENT_SIDES[event]
        .map((side) => `${side.toUpperCase()} TABLE AS ${side}_entities`)
        .join(' ');
      await queryRunner.query(
        `CREATE TRIGGER "entities_location_tree_after_${event}" AFTER ${event.toUpperCase()} ON "entities"
         REFERENCING ${referencing} FOR EACH STATEMENT
         EXECUTE FUNCTION location_tree_versions_after_${event}()`,
      );
    }
    await queryRunner.query(
      `CREATE FUNCTION "location_tree_versions_after_type_update"() RETURNS trigger
       LANGUAGE plpgsql AS $$
       DECLARE of_groups uuid[];
       BEGIN
         SELECT array_agg(DISTINCT n.group_id) INTO of_groups FROM old_types o
           JOIN new_types n ON n.id = o.id WHERE o.is_location IS DISTINCT FROM n.is_location;
         IF of_groups IS NOT NULL THEN PERFORM location_tree_versions_raise(of_groups); END IF;
         RETURN NULL;
       END
       $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "entity_types_location_tree_after_update" AFTER UPDATE ON "entity_types"
       REFERENCING OLD TABLE AS old_types NEW TABLE AS new_types FOR EACH STATEMENT
       EXECUTE FUNCTION location_tree_versions_after_type_update()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TRIGGER "entity_types_location_tree_after_update" ON "entity_types"`,
    );
    await queryRunner.query(`DROP FUNCTION "location_tree_versions_after_type_update"()`);
    for (const event of ['insert', 'update', 'delete']) {
      await queryRunner.query(`DROP TRIGGER "entities_location_tree_after_${event}" ON "entities"`);
      await queryRunner.query(`DROP FUNCTION "location_tree_versions_after_${event}"()`);
    }
    await queryRunner.query(`DROP FUNCTION "location_tree_versions_raise"(uuid[])`);
    await queryRunner.query(`DROP TABLE "location_tree_versions"`);
  }
}
