import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `entity_next_asset_id(group)`: the group's highest asset id plus one, for an INSERT to use in
 * the same statement. It locks the group row first (until the transaction ends, which for a
 * lone statement is at once) and, being VOLATILE, reads the highest id with a fresh snapshot
 * taken after the lock, so concurrent creates in one group never get the same id.
 */
export class AddNextAssetIdFunction1795219440000 implements MigrationInterface {
  name = 'AddNextAssetIdFunction1795219440000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION "entity_next_asset_id"(target uuid) RETURNS bigint
       LANGUAGE plpgsql VOLATILE AS $$
       BEGIN
         PERFORM 1 FROM groups WHERE id = target FOR NO KEY UPDATE;
         RETURN (SELECT coalesce(max(asset_id), 0) + 1 FROM entities WHERE group_id = target);
       END
       $$`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION "entity_next_asset_id"(uuid)`);
  }
}
