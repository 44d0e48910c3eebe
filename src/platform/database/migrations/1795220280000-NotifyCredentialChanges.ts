import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Triggers that announce, on channel `trove_credentials` and in the changing transaction (so on
 * commit, to every instance), the id of a user whose credential checks may now answer
 * differently; each instance then forgets its cached answers for that user. Covered: a session
 * or attachment token changed or deleted before its expiry, its roles changed, an API key changed
 * or deleted, a user changed or deleted, a membership added, changed or removed. Deleting a user
 * or a group reaches these tables through their cascades (and the default group's SET NULL),
 * whose row changes fire the same triggers.
 */
export class NotifyCredentialChanges1795220280000 implements MigrationInterface {
  name = 'NotifyCredentialChanges1795220280000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION "trove_notify_credential_user"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          PERFORM pg_notify('trove_credentials', OLD.user_id::text);
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
          PERFORM pg_notify('trove_credentials', NEW.user_id::text);
        END IF;
        RETURN NULL;
      END $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "trove_notify_credential_self"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('trove_credentials', OLD.id::text);
        RETURN NULL;
      END $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "trove_notify_credential_role"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('trove_credentials', t.user_id::text)
          FROM "auth_tokens" t
          WHERE t.id IN (OLD.token_id, CASE WHEN TG_OP = 'UPDATE' THEN NEW.token_id END);
        RETURN NULL;
      END $$`,
    );
    // The hourly purge deletes expired tokens, which no check accepts any more: no notice.
    await queryRunner.query(
      `CREATE TRIGGER "auth_tokens_credentials_deleted" AFTER DELETE ON "auth_tokens" FOR EACH ROW WHEN (OLD.expires_at > now()) EXECUTE FUNCTION "trove_notify_credential_user"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "auth_tokens_credentials_changed" AFTER UPDATE ON "auth_tokens" FOR EACH ROW EXECUTE FUNCTION "trove_notify_credential_user"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "auth_roles_credentials_changed" AFTER UPDATE OR DELETE ON "auth_roles" FOR EACH ROW EXECUTE FUNCTION "trove_notify_credential_role"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "api_keys_credentials_deleted" AFTER DELETE ON "api_keys" FOR EACH ROW EXECUTE FUNCTION "trove_notify_credential_user"()`,
    );
    // Not on `last_used_at`, which API key use itself writes.
    await queryRunner.query(
      `CREATE TRIGGER "api_keys_credentials_changed" AFTER UPDATE ON "api_keys" FOR EACH ROW WHEN ((OLD.user_id, OLD.key_hash, OLD.expires_at) IS DISTINCT FROM (NEW.user_id, NEW.key_hash, NEW.expires_at)) EXECUTE FUNCTION "trove_notify_credential_user"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "group_memberships_credentials_changed" AFTER INSERT OR UPDATE OR DELETE ON "group_memberships" FOR EACH ROW EXECUTE FUNCTION "trove_notify_credential_user"()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "users_credentials_deleted" AFTER DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "trove_notify_credential_self"()`,
    );
    // Not on name or settings, which users change freely and no check reads.
    await queryRunner.query(
      `CREATE TRIGGER "users_credentials_changed" AFTER UPDATE ON "users" FOR EACH ROW WHEN ((OLD.id, OLD.email, OLD.password_hash, OLD.is_superuser, OLD.activated_on, OLD.default_group_id, OLD.oidc_issuer, OLD.oidc_subject) IS DISTINCT FROM (NEW.id, NEW.email, NEW.password_hash, NEW.is_superuser, NEW.activated_on, NEW.default_group_id, NEW.oidc_issuer, NEW.oidc_subject)) EXECUTE FUNCTION "trove_notify_credential_self"()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [trigger, table] of [
      ['users_credentials_changed', 'users'],
      ['users_credentials_deleted', 'users'],
      ['group_memberships_credentials_changed', 'group_memberships'],
      ['api_keys_credentials_changed', 'api_keys'],
      ['api_keys_credentials_deleted', 'api_keys'],
      ['auth_roles_credentials_changed', 'auth_roles'],
      ['auth_tokens_credentials_changed', 'auth_tokens'],
      ['auth_tokens_credentials_deleted', 'auth_tokens'],
    ]) {
      await queryRunner.query(`DROP TRIGGER "${trigger}" ON "${table}"`);
    }
    await queryRunner.query(`DROP FUNCTION "trove_notify_credential_role"()`);
    await queryRunner.query(`DROP FUNCTION "trove_notify_credential_self"()`);
    await queryRunner.query(`DROP FUNCTION "trove_notify_credential_user"()`);
  }
}
