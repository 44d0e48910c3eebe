import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `Idempotency-Key`s of creating requests: one row per user and key, reserved while the
 * request runs and then holding its response for 24 hours.
 */
export class CreateIdempotencyKeys1795219680000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1795219680000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("user_id" uuid NOT NULL, "key" character varying(255) NOT NULL, "fingerprint" character varying(64) NOT NULL, "reservation" uuid NOT NULL, "response_status" smallint, "response_body" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("user_id", "key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" ("created_at")`,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_user_id_fkey"`,
    );
    await queryRunner.query(`DROP INDEX "public"."idempotency_keys_created_at_idx"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
