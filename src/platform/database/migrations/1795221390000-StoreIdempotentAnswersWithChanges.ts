import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An `Idempotency-Key` is written by the transaction of the change it answers, with the answer's
 * headers that matter (its `ETag`), instead of being reserved beforehand: the reservation id is
 * no longer needed for new rows.
 */
export class StoreIdempotentAnswersWithChanges1795221390000 implements MigrationInterface {
  name = 'StoreIdempotentAnswersWithChanges1795221390000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" ALTER COLUMN "reservation" DROP NOT NULL, ADD "response_headers" jsonb`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "idempotency_keys" SET "reservation" = gen_random_uuid() WHERE "reservation" IS NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "idempotency_keys" DROP COLUMN "response_headers", ALTER COLUMN "reservation" SET NOT NULL`,
    );
  }
}
