import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Users' columns the credential notice follows (see NotifyCredentialChanges1795220280000). */
const NOTIFIED_BEFORE = `"id", "email", "password_hash", "is_superuser", "activated_on", "default_group_id", "oidc_issuer", "oidc_subject"`;

const usersChangedTrigger = (columns: string): string => {
  const old = columns
    .split(', ')
    .map((column) => `OLD.${column}`)
    .join(', ');
  const next = old.replaceAll('OLD.', 'NEW.');
  return `CREATE TRIGGER "users_credentials_changed" AFTER UPDATE ON "users" FOR EACH ROW WHEN ((${old}) IS DISTINCT FROM (${next})) EXECUTE FUNCTION "trove_notify_credential_self"()`;
};

/**
 * Ending a leaver's access: a user can be disabled (`users.disabled_at`, which the credential
 * notice now follows, so every instance forgets their verified credentials when it changes); a
 * single sign-on session keeps the provider's session id (`auth_tokens.provider_session_id`)
 * for back-channel logout, whose accepted tokens are remembered by issuer and `jti`
 * (`oidc_logout_tokens`); and SCIM provisioning keeps the provider's `userName` and
 * `externalId` of a user (`scim_identities`).
 */
export class AddAccountDeprovisioning1795221300000 implements MigrationInterface {
  name = 'AddAccountDeprovisioning1795221300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "disabled_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`DROP TRIGGER "users_credentials_changed" ON "users"`);
    await queryRunner.query(usersChangedTrigger(`${NOTIFIED_BEFORE}, "disabled_at"`));
    await queryRunner.query(`ALTER TABLE "auth_tokens" ADD "provider_session_id" text`);
    await queryRunner.query(
      `CREATE INDEX "auth_tokens_provider_session_id_idx" ON "auth_tokens" ("provider_session_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "oidc_logout_tokens" ("issuer" text NOT NULL, "jti" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "received_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "oidc_logout_tokens_pkey" PRIMARY KEY ("issuer", "jti"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "oidc_logout_tokens_expires_at_idx" ON "oidc_logout_tokens" ("expires_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "scim_identities" ("user_id" uuid NOT NULL, "user_name" character varying(255) NOT NULL, "user_name_key" character varying(255) NOT NULL, "external_id" character varying(255), CONSTRAINT "scim_identities_user_name_key_key" UNIQUE ("user_name_key"), CONSTRAINT "scim_identities_pkey" PRIMARY KEY ("user_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "scim_identities_external_id_idx" ON "scim_identities" ("external_id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "scim_identities" ADD CONSTRAINT "scim_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "scim_identities" DROP CONSTRAINT "scim_identities_user_id_fkey"`,
    );
    await queryRunner.query(`DROP INDEX "public"."scim_identities_external_id_idx"`);
    await queryRunner.query(`DROP TABLE "scim_identities"`);
    await queryRunner.query(`DROP INDEX "public"."oidc_logout_tokens_expires_at_idx"`);
    await queryRunner.query(`DROP TABLE "oidc_logout_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."auth_tokens_provider_session_id_idx"`);
    await queryRunner.query(`ALTER TABLE "auth_tokens" DROP COLUMN "provider_session_id"`);
    await queryRunner.query(`DROP TRIGGER "users_credentials_changed" ON "users"`);
    await queryRunner.query(usersChangedTrigger(NOTIFIED_BEFORE));
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "disabled_at"`);
  }
}
