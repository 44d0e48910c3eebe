import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The instance backups made (`instance_backups`): when, by the schedule or by `npm run backup`,
 * their size, counts, where they were stored, their rehearsed restore and any failure, for the
 * instance administrators' list. The archives themselves live outside the database.
 */
export class CreateInstanceBackups1795221900000 implements MigrationInterface {
  name = 'CreateInstanceBackups1795221900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "instance_backups" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(255) NOT NULL, "trigger" character varying(16) NOT NULL, "state" character varying(16) NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, "size_bytes" bigint, "row_count" bigint, "file_count" integer, "tables" jsonb, "encrypted" boolean NOT NULL DEFAULT false, "locations" jsonb NOT NULL DEFAULT '[]', "verified_at" TIMESTAMP WITH TIME ZONE, "verification" character varying(16), "error" text, "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "instance_backups_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "instance_backups_started_at_idx" ON "instance_backups" ("started_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "instance_backups"`);
  }
}
