import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An attachment token names the session it was issued with (`auth_tokens.session_id`) and is
 * deleted with it (ON DELETE CASCADE), so that ending a session in any way ends its attachment
 * token in the same statement; the deletion's credential notice (NotifyCredentialChanges) then
 * reaches every instance, which forgets both and closes the change-feed sockets opened with
 * either.
 *
 * Attachment tokens issued before are paired with their session by what the two rows of a
 * sign-in share: user, creation time (one transaction) and expiry. One whose session has ended
 * already, or that cannot be paired with exactly one session, is deleted: it would otherwise
 * outlive its session, which is what this change ends.
 */
export class PairAttachmentTokensWithSessions1795221540000 implements MigrationInterface {
  name = 'PairAttachmentTokensWithSessions1795221540000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "auth_tokens" ADD "session_id" uuid`);
    await queryRunner.query(
      `WITH "pairs" AS (
        SELECT a."id" AS "attachment_id", min(s."id"::text)::uuid AS "session_id",
          count(*) AS "sessions"
        FROM "auth_tokens" a
        JOIN "auth_roles" ar ON ar."token_id" = a."id" AND ar."role" = 'attachments'
        JOIN "auth_tokens" s ON s."user_id" = a."user_id" AND s."created_at" = a."created_at"
          AND s."expires_at" = a."expires_at" AND s."id" <> a."id"
        JOIN "auth_roles" sr ON sr."token_id" = s."id" AND sr."role" = 'user'
        GROUP BY a."id"
      )
      UPDATE "auth_tokens" t SET "session_id" = p."session_id"
        FROM "pairs" p WHERE t."id" = p."attachment_id" AND p."sessions" = 1`,
    );
    await queryRunner.query(
      `DELETE FROM "auth_tokens" t WHERE t."session_id" IS NULL
        AND EXISTS (SELECT 1 FROM "auth_roles" r WHERE r."token_id" = t."id" AND r."role" = 'attachments')`,
    );
    await queryRunner.query(
      `CREATE INDEX "auth_tokens_session_id_idx" ON "auth_tokens" ("session_id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "auth_tokens"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "auth_tokens" DROP CONSTRAINT "auth_tokens_session_id_fkey"`,
    );
    await queryRunner.query(`DROP INDEX "public"."auth_tokens_session_id_idx"`);
    await queryRunner.query(`ALTER TABLE "auth_tokens" DROP COLUMN "session_id"`);
  }
}
