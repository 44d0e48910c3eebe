import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The index on `entities.parent_id` also carries what a location's item count reads (type,
 * archived, quantity), so the counts in every entity view come from the index alone.
 */
export class CoverEntityParentIndex1795219560000 implements MigrationInterface {
  name = 'CoverEntityParentIndex1795219560000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "entities_parent_id_item_count_idx" ON "entities" ("parent_id") INCLUDE ("entity_type_id", "archived", "quantity")`,
    );
    await queryRunner.query(`DROP INDEX "entities_parent_id_idx"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "entities_parent_id_idx" ON "entities" ("parent_id")`);
    await queryRunner.query(`DROP INDEX "entities_parent_id_item_count_idx"`);
  }
}
