import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom fields of entities and templates: `number_value` holds any integer a JSON number keeps
 * exactly (±(2^53 − 1)), and `position` keeps the order the fields were last sent in. Existing
 * fields get the positions of the order they were shown in until now.
 */
export class WidenFieldNumbersAddFieldPositions1795219620000 implements MigrationInterface {
  name = 'WidenFieldNumbersAddFieldPositions1795219620000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "entity_fields" ALTER COLUMN "number_value" TYPE bigint`);
    await queryRunner.query(
      `ALTER TABLE "template_fields" ALTER COLUMN "number_value" TYPE bigint`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_fields" ADD "position" integer NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(
      `ALTER TABLE "template_fields" ADD "position" integer NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(
      `UPDATE "entity_fields" f SET "position" = ranked.position FROM (
         SELECT id, row_number() OVER (PARTITION BY entity_id ORDER BY created_at, name, id) - 1 AS position
         FROM "entity_fields"
       ) ranked WHERE ranked.id = f.id`,
    );
    await queryRunner.query(
      `UPDATE "template_fields" f SET "position" = ranked.position FROM (
         SELECT id, row_number() OVER (PARTITION BY template_id ORDER BY created_at, id) - 1 AS position
         FROM "template_fields"
       ) ranked WHERE ranked.id = f.id`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "template_fields" DROP COLUMN "position"`);
    await queryRunner.query(`ALTER TABLE "entity_fields" DROP COLUMN "position"`);
    // Values beyond the integer range cannot go back; they are clamped to it.
    for (const table of ['template_fields', 'entity_fields']) {
      await queryRunner.query(
        `ALTER TABLE "${table}" ALTER COLUMN "number_value" TYPE integer
         USING greatest(-2147483648, least(2147483647, "number_value"))::integer`,
      );
    }
  }
}
