import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The whole stored schema: groups, users and access, and the inventory. */
export class CreateSchema1795219200000 implements MigrationInterface {
  name = 'CreateSchema1795219200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "groups" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "name" character varying(255) NOT NULL, "currency" character varying(3) NOT NULL DEFAULT 'USD', CONSTRAINT "groups_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "name" character varying(255) NOT NULL, "email" character varying(255) NOT NULL, "password_hash" text, "is_superuser" boolean NOT NULL DEFAULT false, "activated_on" TIMESTAMP WITH TIME ZONE, "default_group_id" uuid, "oidc_issuer" text, "oidc_subject" text, "settings" jsonb, CONSTRAINT "users_email_key" UNIQUE ("email"), CONSTRAINT "users_oidc_issuer_oidc_subject_key" UNIQUE ("oidc_issuer", "oidc_subject"), CONSTRAINT "users_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "users_default_group_id_idx" ON "users" ("default_group_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "user_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "key_hash" bytea NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "api_keys_key_hash_key" UNIQUE ("key_hash"), CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "api_keys_user_id_idx" ON "api_keys" ("user_id")`);
    await queryRunner.query(
      `CREATE TABLE "template_fields" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "template_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "description" character varying(1000) NOT NULL DEFAULT '', "type" character varying(16) NOT NULL, "text_value" character varying(500) NOT NULL DEFAULT '', "number_value" integer NOT NULL DEFAULT '0', "boolean_value" boolean NOT NULL DEFAULT false, "time_value" TIMESTAMP WITH TIME ZONE, CONSTRAINT "template_fields_type_check" CHECK ("type" IN ('text', 'number', 'boolean', 'time')), CONSTRAINT "template_fields_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "template_fields_template_id_idx" ON "template_fields" ("template_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "entity_templates" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "group_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "description" character varying(1000) NOT NULL DEFAULT '', "notes" character varying(1000) NOT NULL DEFAULT '', "default_name" character varying(255) NOT NULL DEFAULT '', "default_description" character varying(1000) NOT NULL DEFAULT '', "default_manufacturer" character varying(255) NOT NULL DEFAULT '', "default_model_number" character varying(255) NOT NULL DEFAULT '', "default_quantity" double precision NOT NULL DEFAULT '1', "default_insured" boolean NOT NULL DEFAULT false, "default_lifetime_warranty" boolean NOT NULL DEFAULT false, "default_warranty_details" character varying(1000) NOT NULL DEFAULT '', "default_location_id" uuid, "default_tag_ids" uuid array NOT NULL DEFAULT '{}', "include_purchase_fields" boolean NOT NULL DEFAULT false, "include_sold_fields" boolean NOT NULL DEFAULT false, "include_warranty_fields" boolean NOT NULL DEFAULT false, CONSTRAINT "entity_templates_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_templates_default_location_id_idx" ON "entity_templates" ("default_location_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_templates_group_id_name_idx" ON "entity_templates" ("group_id", "name")`,
    );
    await queryRunner.query(
      `CREATE TABLE "entity_types" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "group_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "description" character varying(1000) NOT NULL DEFAULT '', "icon" character varying(255) NOT NULL DEFAULT '', "is_location" boolean NOT NULL DEFAULT false, "default_template_id" uuid, CONSTRAINT "entity_types_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_types_default_template_id_idx" ON "entity_types" ("default_template_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_types_group_id_name_idx" ON "entity_types" ("group_id", "name")`,
    );
    await queryRunner.query(
      `CREATE TABLE "maintenance_entries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "entity_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "description" character varying(2500) NOT NULL DEFAULT '', "date" date, "scheduled_date" date, "cost" numeric NOT NULL DEFAULT '0', CONSTRAINT "maintenance_entries_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "maintenance_entries_entity_id_scheduled_date_idx" ON "maintenance_entries" ("entity_id", "scheduled_date")`,
    );
    await queryRunner.query(
      `CREATE TABLE "tags" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "group_id" uuid NOT NULL, "parent_id" uuid, "name" character varying(255) NOT NULL, "description" character varying(1000) NOT NULL DEFAULT '', "color" character varying(255) NOT NULL DEFAULT '', "icon" character varying(255) NOT NULL DEFAULT '', CONSTRAINT "tags_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "tags_parent_id_idx" ON "tags" ("parent_id")`);
    await queryRunner.query(`CREATE INDEX "tags_group_id_name_idx" ON "tags" ("group_id", "name")`);
    await queryRunner.query(
      `CREATE TABLE "entity_fields" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "entity_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "description" character varying(1000) NOT NULL DEFAULT '', "type" character varying(16) NOT NULL, "text_value" character varying(500) NOT NULL DEFAULT '', "number_value" integer NOT NULL DEFAULT '0', "boolean_value" boolean NOT NULL DEFAULT false, "time_value" TIMESTAMP WITH TIME ZONE, CONSTRAINT "entity_fields_type_check" CHECK ("type" IN ('text', 'number', 'boolean', 'time')), CONSTRAINT "entity_fields_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_fields_entity_id_idx" ON "entity_fields" ("entity_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_fields_name_text_value_idx" ON "entity_fields" ("name", "text_value")`,
    );
    await queryRunner.query(
      `CREATE TABLE "entities" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "group_id" uuid NOT NULL, "entity_type_id" uuid NOT NULL, "parent_id" uuid, "name" character varying(255) NOT NULL, "description" character varying(1000) NOT NULL DEFAULT '', "import_ref" character varying(100), "notes" character varying(1000) NOT NULL DEFAULT '', "quantity" double precision NOT NULL DEFAULT '1', "insured" boolean NOT NULL DEFAULT false, "archived" boolean NOT NULL DEFAULT false, "asset_id" bigint NOT NULL DEFAULT '0', "serial_number" character varying(255) NOT NULL DEFAULT '', "model_number" character varying(255) NOT NULL DEFAULT '', "manufacturer" character varying(255) NOT NULL DEFAULT '', "lifetime_warranty" boolean NOT NULL DEFAULT false, "warranty_expires" date, "warranty_details" character varying(1000) NOT NULL DEFAULT '', "purchase_date" date, "purchase_from" character varying(255) NOT NULL DEFAULT '', "purchase_price" numeric NOT NULL DEFAULT '0', "sold_date" date, "sold_to" character varying(255) NOT NULL DEFAULT '', "sold_price" numeric NOT NULL DEFAULT '0', "sold_notes" character varying(1000) NOT NULL DEFAULT '', "sync_child_entity_locations" boolean NOT NULL DEFAULT false, CONSTRAINT "entities_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "entities_entity_type_id_idx" ON "entities" ("entity_type_id")`,
    );
    await queryRunner.query(`CREATE INDEX "entities_parent_id_idx" ON "entities" ("parent_id")`);
    await queryRunner.query(
      `CREATE INDEX "entities_group_id_import_ref_idx" ON "entities" ("group_id", "import_ref")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entities_group_id_asset_id_idx" ON "entities" ("group_id", "asset_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entities_group_id_updated_at_idx" ON "entities" ("group_id", "updated_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entities_group_id_created_at_idx" ON "entities" ("group_id", "created_at")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entities_group_id_name_idx" ON "entities" ("group_id", "name")`,
    );
    await queryRunner.query(
      `CREATE TABLE "attachments" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "entity_id" uuid NOT NULL, "type" character varying(16) NOT NULL DEFAULT 'attachment', "primary" boolean NOT NULL DEFAULT false, "title" character varying(255) NOT NULL DEFAULT '', "path" text NOT NULL, "mime_type" character varying(255) NOT NULL DEFAULT '', "thumbnail_id" uuid, CONSTRAINT "attachments_type_check" CHECK ("type" IN ('attachment', 'photo', 'manual', 'warranty', 'receipt', 'thumbnail')), CONSTRAINT "attachments_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "attachments_entity_id_idx" ON "attachments" ("entity_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "attachments_thumbnail_id_idx" ON "attachments" ("thumbnail_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "auth_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "user_id" uuid NOT NULL, "token_hash" bytea NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "auth_tokens_token_hash_key" UNIQUE ("token_hash"), CONSTRAINT "auth_tokens_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "auth_tokens_user_id_idx" ON "auth_tokens" ("user_id")`);
    await queryRunner.query(
      `CREATE INDEX "auth_tokens_expires_at_idx" ON "auth_tokens" ("expires_at")`,
    );
    await queryRunner.query(
      `CREATE TABLE "auth_roles" ("id" SERIAL NOT NULL, "token_id" uuid NOT NULL, "role" character varying(16) NOT NULL, CONSTRAINT "auth_roles_role_check" CHECK ("role" IN ('user', 'admin', 'attachments')), CONSTRAINT "auth_roles_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "auth_roles_token_id_idx" ON "auth_roles" ("token_id")`);
    await queryRunner.query(
      `CREATE TABLE "login_attempts" ("key" character varying(320) NOT NULL, "failures" integer NOT NULL DEFAULT '0', "window_started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "locked_until" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "login_attempts_pkey" PRIMARY KEY ("key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "server_secrets" ("name" character varying(64) NOT NULL, "value" bytea NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "server_secrets_pkey" PRIMARY KEY ("name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "group_invitation_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "group_id" uuid NOT NULL, "token_hash" bytea NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "uses" integer NOT NULL, "role" character varying(16) NOT NULL DEFAULT 'user', CONSTRAINT "group_invitation_tokens_token_hash_key" UNIQUE ("token_hash"), CONSTRAINT "group_invitation_tokens_role_check" CHECK ("role" IN ('owner', 'user', 'viewer')), CONSTRAINT "group_invitation_tokens_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "group_invitation_tokens_group_id_idx" ON "group_invitation_tokens" ("group_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "group_memberships" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "group_id" uuid NOT NULL, "user_id" uuid NOT NULL, "role" character varying(16) NOT NULL DEFAULT 'user', CONSTRAINT "group_memberships_group_id_user_id_key" UNIQUE ("group_id", "user_id"), CONSTRAINT "group_memberships_role_check" CHECK ("role" IN ('owner', 'user', 'viewer')), CONSTRAINT "group_memberships_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "group_memberships_user_id_idx" ON "group_memberships" ("user_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "notifiers" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "group_id" uuid NOT NULL, "user_id" uuid NOT NULL, "name" character varying(255) NOT NULL, "url" text NOT NULL, "is_active" boolean NOT NULL DEFAULT true, CONSTRAINT "notifiers_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "notifiers_user_id_idx" ON "notifiers" ("user_id")`);
    await queryRunner.query(
      `CREATE INDEX "notifiers_group_id_user_id_idx" ON "notifiers" ("group_id", "user_id")`,
    );
    await queryRunner.query(
      `CREATE TABLE "entity_tags" ("entity_id" uuid NOT NULL, "tag_id" uuid NOT NULL, CONSTRAINT "entity_tags_pkey" PRIMARY KEY ("entity_id", "tag_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_tags_entity_id_idx" ON "entity_tags" ("entity_id")`,
    );
    await queryRunner.query(`CREATE INDEX "entity_tags_tag_id_idx" ON "entity_tags" ("tag_id")`);
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "users_default_group_id_fkey" FOREIGN KEY ("default_group_id") REFERENCES "groups"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "template_fields" ADD CONSTRAINT "template_fields_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "entity_templates"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_templates" ADD CONSTRAINT "entity_templates_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_templates" ADD CONSTRAINT "entity_templates_default_location_id_fkey" FOREIGN KEY ("default_location_id") REFERENCES "entities"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_types" ADD CONSTRAINT "entity_types_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_types" ADD CONSTRAINT "entity_types_default_template_id_fkey" FOREIGN KEY ("default_template_id") REFERENCES "entity_templates"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "maintenance_entries" ADD CONSTRAINT "maintenance_entries_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tags" ADD CONSTRAINT "tags_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tags" ADD CONSTRAINT "tags_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "tags"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_fields" ADD CONSTRAINT "entity_fields_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entities" ADD CONSTRAINT "entities_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entities" ADD CONSTRAINT "entities_entity_type_id_fkey" FOREIGN KEY ("entity_type_id") REFERENCES "entity_types"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entities" ADD CONSTRAINT "entities_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "entities"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "attachments" ADD CONSTRAINT "attachments_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "attachments" ADD CONSTRAINT "attachments_thumbnail_id_fkey" FOREIGN KEY ("thumbnail_id") REFERENCES "attachments"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "auth_roles" ADD CONSTRAINT "auth_roles_token_id_fkey" FOREIGN KEY ("token_id") REFERENCES "auth_tokens"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "group_invitation_tokens" ADD CONSTRAINT "group_invitation_tokens_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "group_memberships" ADD CONSTRAINT "group_memberships_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "group_memberships" ADD CONSTRAINT "group_memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notifiers" ADD CONSTRAINT "notifiers_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notifiers" ADD CONSTRAINT "notifiers_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_tags" ADD CONSTRAINT "entity_tags_entity_id_fkey" FOREIGN KEY ("entity_id") REFERENCES "entities"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_tags" ADD CONSTRAINT "entity_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "entity_tags" DROP CONSTRAINT "entity_tags_tag_id_fkey"`);
    await queryRunner.query(
      `ALTER TABLE "entity_tags" DROP CONSTRAINT "entity_tags_entity_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "notifiers" DROP CONSTRAINT "notifiers_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "notifiers" DROP CONSTRAINT "notifiers_group_id_fkey"`);
    await queryRunner.query(
      `ALTER TABLE "group_memberships" DROP CONSTRAINT "group_memberships_user_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "group_memberships" DROP CONSTRAINT "group_memberships_group_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "group_invitation_tokens" DROP CONSTRAINT "group_invitation_tokens_group_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "auth_roles" DROP CONSTRAINT "auth_roles_token_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "auth_tokens" DROP CONSTRAINT "auth_tokens_user_id_fkey"`);
    await queryRunner.query(
      `ALTER TABLE "attachments" DROP CONSTRAINT "attachments_thumbnail_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "attachments" DROP CONSTRAINT "attachments_entity_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "entities" DROP CONSTRAINT "entities_parent_id_fkey"`);
    await queryRunner.query(
      `ALTER TABLE "entities" DROP CONSTRAINT "entities_entity_type_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "entities" DROP CONSTRAINT "entities_group_id_fkey"`);
    await queryRunner.query(
      `ALTER TABLE "entity_fields" DROP CONSTRAINT "entity_fields_entity_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "tags" DROP CONSTRAINT "tags_parent_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "tags" DROP CONSTRAINT "tags_group_id_fkey"`);
    await queryRunner.query(
      `ALTER TABLE "maintenance_entries" DROP CONSTRAINT "maintenance_entries_entity_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_types" DROP CONSTRAINT "entity_types_default_template_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_types" DROP CONSTRAINT "entity_types_group_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_templates" DROP CONSTRAINT "entity_templates_default_location_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_templates" DROP CONSTRAINT "entity_templates_group_id_fkey"`,
    );
    await queryRunner.query(
      `ALTER TABLE "template_fields" DROP CONSTRAINT "template_fields_template_id_fkey"`,
    );
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_user_id_fkey"`);
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "users_default_group_id_fkey"`);
    await queryRunner.query(`DROP INDEX "public"."entity_tags_tag_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entity_tags_entity_id_idx"`);
    await queryRunner.query(`DROP TABLE "entity_tags"`);
    await queryRunner.query(`DROP INDEX "public"."notifiers_group_id_user_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."notifiers_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "notifiers"`);
    await queryRunner.query(`DROP INDEX "public"."group_memberships_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "group_memberships"`);
    await queryRunner.query(`DROP INDEX "public"."group_invitation_tokens_group_id_idx"`);
    await queryRunner.query(`DROP TABLE "group_invitation_tokens"`);
    await queryRunner.query(`DROP TABLE "server_secrets"`);
    await queryRunner.query(`DROP TABLE "login_attempts"`);
    await queryRunner.query(`DROP INDEX "public"."auth_roles_token_id_idx"`);
    await queryRunner.query(`DROP TABLE "auth_roles"`);
    await queryRunner.query(`DROP INDEX "public"."auth_tokens_expires_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."auth_tokens_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "auth_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."attachments_thumbnail_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."attachments_entity_id_idx"`);
    await queryRunner.query(`DROP TABLE "attachments"`);
    await queryRunner.query(`DROP INDEX "public"."entities_group_id_name_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entities_group_id_created_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entities_group_id_updated_at_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entities_group_id_asset_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entities_group_id_import_ref_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entities_parent_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entities_entity_type_id_idx"`);
    await queryRunner.query(`DROP TABLE "entities"`);
    await queryRunner.query(`DROP INDEX "public"."entity_fields_name_text_value_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entity_fields_entity_id_idx"`);
    await queryRunner.query(`DROP TABLE "entity_fields"`);
    await queryRunner.query(`DROP INDEX "public"."tags_group_id_name_idx"`);
    await queryRunner.query(`DROP INDEX "public"."tags_parent_id_idx"`);
    await queryRunner.query(`DROP TABLE "tags"`);
    await queryRunner.query(
      `DROP INDEX "public"."maintenance_entries_entity_id_scheduled_date_idx"`,
    );
    await queryRunner.query(`DROP TABLE "maintenance_entries"`);
    await queryRunner.query(`DROP INDEX "public"."entity_types_group_id_name_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entity_types_default_template_id_idx"`);
    await queryRunner.query(`DROP TABLE "entity_types"`);
    await queryRunner.query(`DROP INDEX "public"."entity_templates_group_id_name_idx"`);
    await queryRunner.query(`DROP INDEX "public"."entity_templates_default_location_id_idx"`);
    await queryRunner.query(`DROP TABLE "entity_templates"`);
    await queryRunner.query(`DROP INDEX "public"."template_fields_template_id_idx"`);
    await queryRunner.query(`DROP TABLE "template_fields"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_user_id_idx"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "public"."users_default_group_id_idx"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP TABLE "groups"`);
  }
}
