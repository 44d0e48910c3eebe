import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `entity_next_asset_id(group)` refuses, with SQLSTATE TR409 and a message for the client, to
 * number a new entity of a group whose highest asset id is already the largest `bigint`, rather
 * than overflowing into a bare "out of range". It still locks the group row first and reads the
 * highest id with a fresh snapshot after the lock.
 */
export class RefuseAssetIdsPastTheLargest1795221600000 implements MigrationInterface {
  name = 'RefuseAssetIdsPastTheLargest1795221600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION "entity_next_asset_id"(target uuid) RETURNS bigint
       LANGUAGE plpgsql VOLATILE AS $$
       DECLARE
         highest bigint;
       BEGIN
         PERFORM 1 FROM groups WHERE id = target FOR NO KEY UPDATE;
         SELECT coalesce(max(asset_id), 0) INTO highest FROM entities WHERE group_id = target;
         IF highest = 9223372036854775807 THEN
           RAISE EXCEPTION USING ERRCODE = 'TR409', MESSAGE =
             'the group has used every asset id up to 9223372036854775807; give its highest '
             'asset id a lower number to create more entities';
         END IF;
         RETURN highest + 1;
       END
       $$`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION "entity_next_asset_id"(target uuid) RETURNS bigint
       LANGUAGE plpgsql VOLATILE AS $$
       BEGIN
         PERFORM 1 FROM groups WHERE id = target FOR NO KEY UPDATE;
         RETURN (SELECT coalesce(max(asset_id), 0) + 1 FROM entities WHERE group_id = target);
       END
       $$`,
    );
  }
}
