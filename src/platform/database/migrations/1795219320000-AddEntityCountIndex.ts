import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lets the total of an entity list (a group's non-archived entities of some types) be counted
 * from the index alone instead of visiting every row.
 */
export class AddEntityCountIndex1795219320000 implements MigrationInterface {
  name = 'AddEntityCountIndex1795219320000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "entities_group_id_archived_entity_type_id_idx" ON "entities" ("group_id", "archived", "entity_type_id")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "entities_group_id_archived_entity_type_id_idx"`);
  }
}
