import type { DatabaseLogic } from '../../platform/database/schema/database-logic.js';

/**
 * Credential notices: when a user's password, sessions, API keys, roles or memberships change,
 * PostgreSQL announces the user's id on the channel `trove_credentials` (the role's name for a
 * changed role), in the transaction of the change, however it was made. Every instance listens
 * and forgets what it had verified of that user's credentials (`VerifiedCredentials`), so a
 * revoked session or key stops working on every instance at once. Writes no table.
 */
export const CREDENTIAL_NOTICES: DatabaseLogic = {
  tables: [],
  statements: [
    `CREATE OR REPLACE FUNCTION public.trove_notify_credential_role()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        PERFORM pg_notify('trove_credentials', t.user_id::text)
          FROM "auth_tokens" t
          WHERE t.id IN (OLD.token_id, CASE WHEN TG_OP = 'UPDATE' THEN NEW.token_id END);
        RETURN NULL;
      END $function$`,
    `CREATE OR REPLACE FUNCTION public.trove_notify_credential_self()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        PERFORM pg_notify('trove_credentials', OLD.id::text);
        RETURN NULL;
      END $function$`,
    `CREATE OR REPLACE FUNCTION public.trove_notify_credential_user()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          PERFORM pg_notify('trove_credentials', OLD.user_id::text);
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
          PERFORM pg_notify('trove_credentials', NEW.user_id::text);
        END IF;
        RETURN NULL;
      END $function$`,
    `CREATE TRIGGER api_keys_credentials_changed AFTER UPDATE ON public.api_keys FOR EACH ROW WHEN ((OLD.user_id, OLD.key_hash, OLD.expires_at) IS DISTINCT FROM (NEW.user_id, NEW.key_hash, NEW.expires_at)) EXECUTE FUNCTION trove_notify_credential_user()`,
    `CREATE TRIGGER api_keys_credentials_deleted AFTER DELETE ON public.api_keys FOR EACH ROW EXECUTE FUNCTION trove_notify_credential_user()`,
    `CREATE TRIGGER auth_roles_credentials_changed AFTER DELETE OR UPDATE ON public.auth_roles FOR EACH ROW EXECUTE FUNCTION trove_notify_credential_role()`,
    `CREATE TRIGGER auth_tokens_credentials_changed AFTER UPDATE ON public.auth_tokens FOR EACH ROW EXECUTE FUNCTION trove_notify_credential_user()`,
    `CREATE TRIGGER auth_tokens_credentials_deleted AFTER DELETE ON public.auth_tokens FOR EACH ROW WHEN ((old.expires_at > now())) EXECUTE FUNCTION trove_notify_credential_user()`,
    `CREATE TRIGGER group_memberships_credentials_changed AFTER INSERT OR DELETE OR UPDATE ON public.group_memberships FOR EACH ROW EXECUTE FUNCTION trove_notify_credential_user()`,
    `CREATE TRIGGER users_credentials_changed AFTER UPDATE ON public.users FOR EACH ROW WHEN ((OLD.id, OLD.email, OLD.password_hash, OLD.is_superuser, OLD.activated_on, OLD.default_group_id, OLD.oidc_issuer, OLD.oidc_subject, OLD.disabled_at) IS DISTINCT FROM (NEW.id, NEW.email, NEW.password_hash, NEW.is_superuser, NEW.activated_on, NEW.default_group_id, NEW.oidc_issuer, NEW.oidc_subject, NEW.disabled_at)) EXECUTE FUNCTION trove_notify_credential_self()`,
    `CREATE TRIGGER users_credentials_deleted AFTER DELETE ON public.users FOR EACH ROW EXECUTE FUNCTION trove_notify_credential_self()`,
  ],
};
