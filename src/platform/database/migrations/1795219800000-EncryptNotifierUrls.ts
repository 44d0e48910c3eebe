import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifier URLs are kept encrypted (`url_encrypted`), and each notifier records how its
 * deliveries went. The key lives outside SQL (configuration or `server_secrets`), so this
 * migration only moves the clear URLs aside into `url_plaintext`: the application encrypts them
 * at start-up and clears that column (NotifiersService.encryptLegacyUrls).
 */
export class EncryptNotifierUrls1795219800000 implements MigrationInterface {
  name = 'EncryptNotifierUrls1795219800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notifiers" RENAME COLUMN "url" TO "url_plaintext"`);
    await queryRunner.query(`ALTER TABLE "notifiers" ALTER COLUMN "url_plaintext" DROP NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "notifiers" ADD "url_encrypted" text, ADD "last_success_at" TIMESTAMP WITH TIME ZONE, ADD "last_error" text, ADD "last_error_at" TIMESTAMP WITH TIME ZONE`,
    );
  }

  /** Back to clear URLs: those already encrypted cannot be read in SQL and become "". */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "notifiers" DROP COLUMN "last_error_at", DROP COLUMN "last_error", DROP COLUMN "last_success_at", DROP COLUMN "url_encrypted"`,
    );
    await queryRunner.query(
      `UPDATE "notifiers" SET "url_plaintext" = '' WHERE "url_plaintext" IS NULL`,
    );
    await queryRunner.query(`ALTER TABLE "notifiers" ALTER COLUMN "url_plaintext" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "notifiers" RENAME COLUMN "url_plaintext" TO "url"`);
  }
}
