import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the daily reminders remember (the groups reminded each day, the warranty end days
 * announced), and the indexes their two questions across all groups need: maintenance due on a
 * day and not completed, and warranties ending within a range of days.
 */
export class CreateReminderRuns1795219920000 implements MigrationInterface {
  name = 'CreateReminderRuns1795219920000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "reminder_runs" ("group_id" uuid NOT NULL, "day" date NOT NULL, "sent_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "reminder_runs_pkey" PRIMARY KEY ("group_id", "day"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "reminder_runs" ADD CONSTRAINT "reminder_runs_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE TABLE "warranty_announcements" ("entity_id" uuid NOT NULL, "warranty_expires" date NOT NULL, "announced_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "warranty_announcements_pkey" PRIMARY KEY ("entity_id", "warranty_expires"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "warranty_announcements" ADD CONSTRAINT "warranty_announcements_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "maintenance_entries_due_idx" ON "maintenance_entries" ("scheduled_date")
       WHERE "date" IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "entities_warranty_ending_idx" ON "entities" ("warranty_expires")
       WHERE "warranty_expires" IS NOT NULL AND NOT "lifetime_warranty" AND NOT "archived"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "entities_warranty_ending_idx"`);
    await queryRunner.query(`DROP INDEX "maintenance_entries_due_idx"`);
    await queryRunner.query(`DROP TABLE "warranty_announcements"`);
    await queryRunner.query(`DROP TABLE "reminder_runs"`);
  }
}
