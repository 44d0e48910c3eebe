import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trigram indexes for text search (`q`) over entities and custom-field values, and the index
 * behind the default, case-insensitive name order. The search expression must stay identical
 * to ENTITY_SEARCH_TEXT in src/entities/entity-filter.ts.
 */
export class AddEntitySearch1795219260000 implements MigrationInterface {
  name = 'AddEntitySearch1795219260000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(
      `CREATE INDEX "entities_search_idx" ON "entities" USING gin ((name || E'\\x1f' || description || E'\\x1f' || serial_number || E'\\x1f' || model_number || E'\\x1f' || manufacturer || E'\\x1f' || notes) gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_fields_text_value_trgm_idx" ON "entity_fields" USING gin (text_value gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX "entities_group_id_lower_name_idx" ON "entities" (group_id, lower(name), id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "entities_group_id_lower_name_idx"`);
    await queryRunner.query(`DROP INDEX "entity_fields_text_value_trgm_idx"`);
    await queryRunner.query(`DROP INDEX "entities_search_idx"`);
  }
}
