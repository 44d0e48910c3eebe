import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stock levels of entities (`entity_stock`: a minimum, a reorder quantity, an expiry day and
 * notes, one row per entity that has them) and the low-stock alerts that go with them.
 *
 * Whether an entity is low (not archived, a minimum set, quantity at or below it) is kept on its
 * stock row (`low_alerted`) by triggers, however the change is made: an entity's quantity or
 * archived flag changing (any statement: an edit, an import, a bulk action), or its stock row
 * being added or its minimum changed. When an entity goes from not low to low, the same
 * transaction writes a row to the outbox `stock_alerts` and sends `trove_stock_alerts` (on
 * commit); the app drains the outbox and tells the group's notifiers. An entity that stays low
 * writes nothing more; once it is above its minimum again (or archived, or its minimum cleared)
 * the flag is reset, so the next crossing alerts again.
 *
 * The entities trigger is a row trigger whose `WHEN` lets through only rows whose quantity or
 * archived flag changed, and whose function looks up the stock row by key: an entity write that
 * changes neither runs nothing, and one without a stock row costs an index probe.
 */
export class CreateEntityStock1795220520000 implements MigrationInterface {
  name = 'CreateEntityStock1795220520000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "entity_stock" ("entity_id" uuid NOT NULL, "group_id" uuid NOT NULL, "min_quantity" integer, "reorder_quantity" integer, "expires_on" date, "notes" character varying(1000) NOT NULL DEFAULT '', "low_alerted" boolean NOT NULL DEFAULT false, "expiry_announced_on" date, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "entity_stock_min_quantity_check" CHECK ("min_quantity" >= 0), CONSTRAINT "entity_stock_reorder_quantity_check" CHECK ("reorder_quantity" >= 0), CONSTRAINT "entity_stock_pkey" PRIMARY KEY ("entity_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_stock_group_id_idx" ON "entity_stock" ("group_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_stock_expires_on_idx" ON "entity_stock" ("expires_on")`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_stock" ADD CONSTRAINT "entity_stock_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_stock" ADD CONSTRAINT "entity_stock_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    // The outbox: written only by the triggers below, drained by the app.
    await queryRunner.query(
      `CREATE TABLE "stock_alerts" ("id" bigint GENERATED ALWAYS AS IDENTITY, "entity_id" uuid NOT NULL, "group_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "stock_alerts_pkey" PRIMARY KEY ("id"), CONSTRAINT "stock_alerts_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE, CONSTRAINT "stock_alerts_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE)`,
    );
    await queryRunner.query(
      `CREATE INDEX "stock_alerts_entity_id_idx" ON "stock_alerts" ("entity_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "stock_alerts_group_id_idx" ON "stock_alerts" ("group_id")`,
    );
    // Brings the flags of the stock rows of `of_entities` up to date; a crossing into low alerts.
    await queryRunner.query(
      `CREATE FUNCTION "entity_stock_check"(of_entities uuid[]) RETURNS void LANGUAGE plpgsql AS $$
       DECLARE alerted integer;
       BEGIN
         WITH state AS (
           SELECT s.entity_id,
             (NOT e.archived AND s.min_quantity IS NOT NULL AND e.quantity <= s.min_quantity) AS low
           FROM entity_stock s JOIN entities e ON e.id = s.entity_id
           WHERE s.entity_id = ANY(of_entities)
         ),
         changed AS (
           UPDATE entity_stock s SET low_alerted = state.low
           FROM state WHERE s.entity_id = state.entity_id AND s.low_alerted <> state.low
           RETURNING s.entity_id, s.group_id, s.low_alerted
         )
         INSERT INTO stock_alerts (entity_id, group_id)
           SELECT entity_id, group_id FROM changed WHERE low_alerted ORDER BY entity_id;
         GET DIAGNOSTICS alerted = ROW_COUNT;
         IF alerted > 0 THEN PERFORM pg_notify('trove_stock_alerts', ''); END IF;
       END $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "entity_stock_after_entity"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF EXISTS (SELECT 1 FROM entity_stock WHERE entity_id = NEW.id) THEN
           PERFORM entity_stock_check(ARRAY[NEW.id]);
         END IF;
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "entity_stock_after_stock"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM entity_stock_check(ARRAY[NEW.entity_id]);
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "entities_stock_changed" AFTER UPDATE OF "quantity", "archived" ON "entities" FOR EACH ROW WHEN (OLD.quantity IS DISTINCT FROM NEW.quantity OR OLD.archived IS DISTINCT FROM NEW.archived) EXECUTE FUNCTION "entity_stock_after_entity"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "entity_stock_added" AFTER INSERT ON "entity_stock" FOR EACH ROW EXECUTE FUNCTION "entity_stock_after_stock"()`,
    );
    // Not on the flag itself, which the check writes.
    await queryRunner.query(
      `CREATE TRIGGER "entity_stock_minimum_changed" AFTER UPDATE OF "min_quantity" ON "entity_stock" FOR EACH ROW WHEN (OLD.min_quantity IS DISTINCT FROM NEW.min_quantity) EXECUTE FUNCTION "entity_stock_after_stock"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "entities_stock_changed" ON "entities"`);
    await queryRunner.query(`DROP TABLE "stock_alerts"`);
    await queryRunner.query(`DROP TABLE "entity_stock"`);
    await queryRunner.query(`DROP FUNCTION "entity_stock_after_stock"()`);
    await queryRunner.query(`DROP FUNCTION "entity_stock_after_entity"()`);
    await queryRunner.query(`DROP FUNCTION "entity_stock_check"(uuid[])`);
  }
}
