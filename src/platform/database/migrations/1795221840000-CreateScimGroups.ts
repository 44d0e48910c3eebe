import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The groups an identity provider pushes over SCIM (`scim_groups`) and their members
 * (`scim_group_members`): kept as sent, so the provider sees its own state; what a group grants
 * in Trove follows from TROVE_OIDC_ROLE_MAPPING. A deleted user leaves every pushed group.
 */
export class CreateScimGroups1795221840000 implements MigrationInterface {
  name = 'CreateScimGroups1795221840000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "scim_groups" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "display_name" character varying(255) NOT NULL, "display_name_key" character varying(255) NOT NULL, "external_id" character varying(255), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "scim_groups_display_name_key_key" UNIQUE ("display_name_key"), CONSTRAINT "scim_groups_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "scim_groups_external_id_idx" ON "scim_groups" ("external_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "scim_group_members" ("group_id" uuid NOT NULL, "user_id" uuid NOT NULL, "added_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "scim_group_members_pkey" PRIMARY KEY ("group_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "scim_group_members_user_id_idx" ON "scim_group_members" ("user_id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "scim_groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "scim_group_members" ADD CONSTRAINT "scim_group_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "scim_group_members"`);
    await queryRunner.query(`DROP TABLE "scim_groups"`);
  }
}
