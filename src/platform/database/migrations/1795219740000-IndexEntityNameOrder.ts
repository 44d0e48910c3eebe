import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The index behind the default entity order, now the one name order of the whole app
 * (`nameOrder` in src/database/name-order.ts): A to Z case-insensitively, then by code point,
 * then id, whatever the database's collation. Its expressions must stay identical to that order.
 */
export class IndexEntityNameOrder1795219740000 implements MigrationInterface {
  name = 'IndexEntityNameOrder1795219740000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "entities_group_id_lower_name_idx"`);
    await queryRunner.query(
      `CREATE INDEX "entities_group_id_name_order_idx" ON "entities"
       (group_id, lower(name COLLATE "C"), (name COLLATE "C"), id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "entities_group_id_name_order_idx"`);
    await queryRunner.query(
      `CREATE INDEX "entities_group_id_lower_name_idx" ON "entities" (group_id, lower(name), id)`,
    );
  }
}
