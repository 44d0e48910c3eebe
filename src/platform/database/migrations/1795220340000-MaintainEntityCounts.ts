import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The transition tables each trigger event sees. */
const EVENT_SIDES = {
  INSERT: ['new'],
  UPDATE: ['old', 'new'],
  DELETE: ['old'],
} as const;

/**
 * The functions the counting triggers run: each nets its statement's rows per (group, type,
 * archived) and hands the changes to `entity_counts_apply`.
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

/**
 * `entity_counts`: how many entities each group has of each type, archived or not, kept exact by
 * statement triggers on `entities` in the transaction of every change, so an unfiltered list's
 * total (and the totals of the statistics) is a read of a few rows instead of a count of the
 * inventory. Counting by type rather than by kind means a type that becomes a location type
 * needs no recount.
 *
 * Each trigger nets the statement's changes per (group, type, archived) first, so an update
 * that moves nothing between counts (a rename, most edits) writes and locks nothing. When counts
 * change, the group row is locked first, as `entity_next_asset_id` does for every create: all
 * writers of a group's counts take the group row, then the count rows in key order, so two
 * transactions never wait on each other's count rows (no deadlock). Decreases only update
 * existing rows, so a group's deletion, whose cascade may remove the count rows before the
 * entities, never recreates them.
 */
export class MaintainEntityCounts1795220340000 implements MigrationInterface {
  name = 'MaintainEntityCounts1795220340000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "entity_counts" ("group_id" uuid NOT NULL, "entity_type_id" uuid NOT NULL, "archived" boolean NOT NULL, "entities" bigint NOT NULL, CONSTRAINT "entity_counts_pkey" PRIMARY KEY ("group_id", "entity_type_id", "archived"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_counts" ADD CONSTRAINT "entity_counts_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_counts" ADD CONSTRAINT "entity_counts_entity_type_id_fkey" FOREIGN KEY ("entity_type_id") REFERENCES "entity_types"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_counts_entity_type_id_idx" ON "entity_counts" ("entity_type_id")`,
    );
    await createCountingFunctions(queryRunner);
    for (const event of ['INSERT', 'UPDATE', 'DELETE'] as const) {
      const referencing = EVENT_SIDES[event]
        .map((side) => `${side.toUpperCase()} TABLE AS ${side}_entities`)
        .join(' ');
      await queryRunner.query(
        `CREATE TRIGGER "entities_counts_after_${event.toLowerCase()}" AFTER ${event} ON "entities"
         REFERENCING ${referencing} FOR EACH STATEMENT
         EXECUTE FUNCTION entity_counts_after_${event.toLowerCase()}()`,
      );
    }
    await queryRunner.query(
      `INSERT INTO entity_counts (group_id, entity_type_id, archived, entities)
       SELECT group_id, entity_type_id, archived, count(*) FROM entities
       GROUP BY group_id, entity_type_id, archived`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of ['insert', 'update', 'delete']) {
      await queryRunner.query(`DROP TRIGGER "entities_counts_after_${event}" ON "entities"`);
      await queryRunner.query(`DROP FUNCTION "entity_counts_after_${event}"()`);
    }
    await queryRunner.query(
      `DROP FUNCTION "entity_counts_apply"(uuid[], uuid[], boolean[], bigint[])`,
    );
    await queryRunner.query(`DROP TABLE "entity_counts"`);
  }
}
