import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Finds the attachments that share a stored file (checked before a file is deleted). */
export class AddAttachmentPathIndex1795219380000 implements MigrationInterface {
  name = 'AddAttachmentPathIndex1795219380000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "attachments_path_idx" ON "attachments" ("path")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "attachments_path_idx"`);
  }
}
