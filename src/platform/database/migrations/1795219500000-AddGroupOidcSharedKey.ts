import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Marks the group that OIDC sign-ins share with a column of its own, instead of a pointer kept
 * among the server secrets; existing pointers move to the column.
 */
export class AddGroupOidcSharedKey1795219500000 implements MigrationInterface {
  name = 'AddGroupOidcSharedKey1795219500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "groups" ADD "oidc_shared_key" character varying(40), ADD CONSTRAINT "groups_oidc_shared_key_key" UNIQUE ("oidc_shared_key")`,
    );
    await queryRunner.query(
      `UPDATE "groups" g SET "oidc_shared_key" = substr(s."name", 19)
       FROM "server_secrets" s
       WHERE s."name" LIKE 'oidc-shared-group:%' AND g."id"::text = convert_from(s."value", 'UTF8')`,
    );
    await queryRunner.query(`DELETE FROM "server_secrets" WHERE "name" LIKE 'oidc-shared-group:%'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `INSERT INTO "server_secrets" ("name", "value")
       SELECT 'oidc-shared-group:' || "oidc_shared_key", convert_to("id"::text, 'UTF8')
       FROM "groups" WHERE "oidc_shared_key" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "groups" DROP CONSTRAINT "groups_oidc_shared_key_key", DROP COLUMN "oidc_shared_key"`,
    );
  }
}
