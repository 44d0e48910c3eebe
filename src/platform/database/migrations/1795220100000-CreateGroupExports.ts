import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Collection backup jobs (exports and imports) of groups, with their progress and artifact. */
export class CreateGroupExports1795220100000 implements MigrationInterface {
  name = 'CreateGroupExports1795220100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "group_exports" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "group_id" uuid NOT NULL, "user_id" uuid, "kind" character varying(16) NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "progress" smallint NOT NULL DEFAULT '0', "artifact_key" text, "size_bytes" bigint NOT NULL DEFAULT '0', "error" text, "attempt" uuid, CONSTRAINT "group_exports_progress_check" CHECK ("progress" BETWEEN 0 AND 100), CONSTRAINT "group_exports_status_check" CHECK ("status" IN ('pending', 'running', 'completed', 'failed')), CONSTRAINT "group_exports_kind_check" CHECK ("kind" IN ('export', 'import')), CONSTRAINT "group_exports_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "group_exports_user_id_idx" ON "group_exports" ("user_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "group_exports_group_id_created_at_idx" ON "group_exports" ("group_id", "created_at")`,
    );
    await queryRunner.query(
      `ALTER TABLE "group_exports" ADD CONSTRAINT "group_exports_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "group_exports" ADD CONSTRAINT "group_exports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "group_exports"`);
  }
}
