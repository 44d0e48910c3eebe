import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Password reset links: the SHA-256 of each secret, its user, expiry and when it was used. */
export class CreatePasswordResets1795219860000 implements MigrationInterface {
  name = 'CreatePasswordResets1795219860000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "password_resets" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "token_hash" bytea NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "password_resets_token_hash_key" UNIQUE ("token_hash"), CONSTRAINT "password_resets_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "password_resets_user_id_idx" ON "password_resets" ("user_id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "password_resets" DROP CONSTRAINT "password_resets_user_id_fkey"`,
    );
    await queryRunner.query(`DROP INDEX "public"."password_resets_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "password_resets"`);
  }
}
