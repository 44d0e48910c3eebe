import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stock adjustments (`stock_adjustments`): a change of an entity's quantity with its reason, one
 * row per adjustment, never changed. A statement trigger records each in the entity's history as
 * `stock.adjustments.<id>` (its quantity before and after and the reason), in the transaction that
 * also changes the entity's quantity, so that the two make one history entry.
 */
export class CreateStockAdjustments1795221720000 implements MigrationInterface {
  name = 'CreateStockAdjustments1795221720000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "stock_adjustments" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "group_id" uuid NOT NULL, "entity_id" uuid NOT NULL, "quantity_before" double precision NOT NULL, "quantity_after" double precision NOT NULL, "reason" character varying(500) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "stock_adjustments_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "stock_adjustments_group_id_idx" ON "stock_adjustments" ("group_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "stock_adjustments_entity_id_created_at_idx" ON "stock_adjustments" ("entity_id", "created_at")`,
    );
    await queryRunner.query(
      `ALTER TABLE "stock_adjustments" ADD CONSTRAINT "stock_adjustments_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "stock_adjustments" ADD CONSTRAINT "stock_adjustments_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "stock_adjustments_history_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(NULL, a.v))::entity_history_change
          FROM (SELECT entity_id, jsonb_object_agg('stock.adjustments.' || id, jsonb_build_object('quantityBefore', quantity_before, 'quantityAfter', quantity_after, 'reason', reason)) AS v
   FROM new_rows GROUP BY entity_id) a
          JOIN entities e ON e.id = a.entity_id));
           RETURN NULL;
         END
         $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "stock_adjustments_history_after_insert" AFTER INSERT ON "stock_adjustments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "stock_adjustments_history_after_insert"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "stock_adjustments"`);
    await queryRunner.query(`DROP FUNCTION "stock_adjustments_history_after_insert"()`);
  }
}
