import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Check-outs of entities: some of an entity's quantity lent to a member or an outside borrower,
 * returned in parts. The partial index serves the daily reminders' overdue check-outs.
 */
export class CreateCheckouts1795220580000 implements MigrationInterface {
  name = 'CreateCheckouts1795220580000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "checkouts" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "group_id" uuid NOT NULL, "entity_id" uuid NOT NULL, "quantity" integer NOT NULL, "returned_quantity" integer NOT NULL DEFAULT '0', "member_id" uuid, "borrower" character varying(255), "due_on" date, "notes" character varying(1000) NOT NULL DEFAULT '', "checked_out_by" uuid, "returned_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "checkouts_borrower_check" CHECK (num_nonnulls("member_id", "borrower") <= 1), CONSTRAINT "checkouts_returned_quantity_check" CHECK ("returned_quantity" BETWEEN 0 AND "quantity"), CONSTRAINT "checkouts_quantity_check" CHECK ("quantity" > 0), CONSTRAINT "checkouts_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "checkouts_member_id_idx" ON "checkouts" ("member_id")`);
    await queryRunner.query(
      `CREATE INDEX "checkouts_checked_out_by_idx" ON "checkouts" ("checked_out_by")`,
    );
    await queryRunner.query(
      `CREATE INDEX "checkouts_entity_id_created_at_idx" ON "checkouts" ("entity_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "checkouts_group_id_returned_at_due_on_idx" ON "checkouts" ("group_id", "returned_at", "due_on")`,
    );
    await queryRunner.query(
      `CREATE INDEX "checkouts_overdue_idx" ON "checkouts" ("due_on") WHERE "returned_at" IS NULL AND "due_on" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_member_id_fkey" FOREIGN KEY ("member_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_checked_out_by_fkey" FOREIGN KEY ("checked_out_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "checkouts"`);
  }
}
