import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The transition tables each trigger event sees. */
const EVENT_SIDES = {
  INSERT: ['new'],
  UPDATE: ['old', 'new'],
  DELETE: ['old'],
} as const;
type TriggerEvent = keyof typeof EVENT_SIDES;

/**
 * A table whose changes are changes of an entity: the statement that yields, for the rows one
 * statement changed (`old_rows` and `new_rows`, as the event has them), one
 * `entity_history_change` per entity.
 */
interface TrackedTable {
  table: string;
  events: TriggerEvent[];
  changes: (event: TriggerEvent) => string;
}

/** The custom fields of the changed rows, per entity, as `{"fields.<name>": value}`. */
const fieldValues = (side: 'old' | 'new'): string =>
  `SELECT entity_id, jsonb_object_agg('fields.' || name, entity_history_field_value(type, text_value, number_value, boolean_value, time_value)) AS v
   FROM ${side}_rows GROUP BY entity_id`;

/** The attachments (not thumbnails) of the changed rows, per entity, as `{"attachments.<id>": …}`. */
const attachmentValues = (side: 'old' | 'new'): string =>
  `SELECT entity_id, jsonb_object_agg('attachments.' || id, jsonb_build_object('title', title, 'type', type, 'primary', "primary", 'mimeType', mime_type)) AS v
   FROM ${side}_rows WHERE type <> 'thumbnail' GROUP BY entity_id`;

/**
 * Before and after of a child table's rows per entity, for the entities that still exist:
 * `values` gives, for one side, a row per entity with its values as one object (`v`).
 */
const childChanges = (values: (side: 'old' | 'new') => string, event: TriggerEvent): string => {
  const before =
    event === 'INSERT'
      ? `SELECT NULL::uuid AS entity_id, NULL::jsonb AS v WHERE false`
      : values('old');
  const after =
    event === 'DELETE'
      ? `SELECT NULL::uuid AS entity_id, NULL::jsonb AS v WHERE false`
      : values('new');
  return `SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (${before}) b FULL JOIN (${after}) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)`;
};

const TRACKED: TrackedTable[] = [
  {
    table: 'entities',
    events: ['INSERT', 'UPDATE', 'DELETE'],
    changes: (event) =>
      event === 'INSERT'
        ? `SELECT ROW(n.group_id, n.id, n.name, 'create', entity_history_diff(NULL, entity_history_present(entity_history_values(n))))::entity_history_change FROM new_rows n`
        : event === 'DELETE'
          ? `SELECT ROW(o.group_id, o.id, o.name, 'delete', entity_history_diff(entity_history_present(entity_history_values(o)), NULL))::entity_history_change FROM old_rows o`
          : `SELECT ROW(n.group_id, n.id, n.name, 'update', entity_history_diff(entity_history_values(o), entity_history_values(n)))::entity_history_change
             FROM old_rows o JOIN new_rows n ON n.id = o.id`,
  },
  {
    // The whole set of tag ids before and after, so that a replacement (delete, then insert) in
    // one transaction reads as one change.
    table: 'entity_tags',
    events: ['INSERT', 'DELETE'],
    changes: (event) => {
      const touched = event === 'INSERT' ? 'new_rows' : 'old_rows';
      const before =
        event === 'INSERT'
          ? `ARRAY(SELECT unnest(now.ids) EXCEPT SELECT tag_id FROM new_rows r WHERE r.entity_id = e.id ORDER BY 1)`
          : `ARRAY(SELECT unnest(now.ids) UNION SELECT tag_id FROM old_rows r WHERE r.entity_id = e.id ORDER BY 1)`;
      return `SELECT ROW(e.group_id, e.id, e.name, 'update',
                entity_history_diff(jsonb_build_object('tagIds', to_jsonb(${before})),
                                    jsonb_build_object('tagIds', to_jsonb(now.ids))))::entity_history_change
              FROM (SELECT DISTINCT entity_id FROM ${touched}) t
              JOIN entities e ON e.id = t.entity_id
              CROSS JOIN LATERAL (SELECT ARRAY(SELECT tag_id FROM entity_tags l WHERE l.entity_id = e.id ORDER BY 1) AS ids) now`;
    },
  },
  {
    table: 'entity_fields',
    events: ['INSERT', 'UPDATE', 'DELETE'],
    changes: (event) => childChanges(fieldValues, event),
  },
  {
    table: 'attachments',
    events: ['INSERT', 'UPDATE', 'DELETE'],
    changes: (event) => childChanges(attachmentValues, event),
  },
];

/** The statement triggers that record the changes of these tables in the entity history. */
async function createHistoryTriggers(
  queryRunner: QueryRunner,
  tables: TrackedTable[],
): Promise<void> {
  for (const tracked of tables) {
    for (const event of tracked.events) {
      const name = `${tracked.table}_history_after_${event.toLowerCase()}`;
      await queryRunner.query(
        `CREATE FUNCTION "${name}"() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           PERFORM entity_history_write(ARRAY(${tracked.changes(event)}));
           RETURN NULL;
         END
         $$`,
      );
      const referencing = EVENT_SIDES[event]
        .map((side) => `${side.toUpperCase()} TABLE AS ${side}_rows`)
        .join(' ');
      await queryRunner.query(
        `CREATE TRIGGER "${name}" AFTER ${event} ON "${tracked.table}"
         REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION "${name}"()`,
      );
    }
  }
}

async function dropHistoryTriggers(
  queryRunner: QueryRunner,
  tables: TrackedTable[],
): Promise<void> {
  for (const tracked of [...tables].reverse()) {
    for (const event of tracked.events) {
      const name = `${tracked.table}_history_after_${event.toLowerCase()}`;
      await queryRunner.query(`DROP TRIGGER "${name}" ON "${tracked.table}"`);
      await queryRunner.query(`DROP FUNCTION "${name}"()`);
    }
  }
}

/**
 * `entity_history`: every change to an entity, written by statement triggers in the transaction
 * of the change, so no path (an API operation, an import, a bulk change, a cascade) can change
 * an entity without leaving its row, and a change rolled back leaves none. One row per entity
 * and transaction: the changes of the statements of one operation (the entity, then its tags,
 * fields and attachments) are merged into it, each changed field keeping its first `before` and
 * its last `after`.
 *
 * Who and which operation come from transaction-local settings the app sets when a unit of work
 * opens in a request (`trove.actor`, `trove.operation`); without them the change is the
 * system's (a scheduled job, a restore). The actor is resolved once per transaction into what
 * the row keeps (the user's name then, the API key's name, the SSO issuer), so the history reads
 * the same after the user or key is gone. Rows of an entity outlive it; they go with the group.
 *
 * `auth_tokens.single_sign_on` marks the sessions an SSO sign-in issued.
 */
export class RecordEntityHistory1795220460000 implements MigrationInterface {
  name = 'RecordEntityHistory1795220460000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "auth_tokens" ADD "single_sign_on" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `CREATE TABLE "entity_history" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "seq" bigint GENERATED ALWAYS AS IDENTITY, "group_id" uuid NOT NULL, "entity_id" uuid NOT NULL, "entity_name" character varying(255) NOT NULL, "transaction_id" bigint NOT NULL, "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "actor_id" uuid, "actor" jsonb NOT NULL, "operation" character varying(255) NOT NULL, "action" character varying(16) NOT NULL, "changes" jsonb NOT NULL, CONSTRAINT "entity_history_action_check" CHECK ("action" IN ('create', 'update', 'delete')), CONSTRAINT "entity_history_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "entity_history" ADD CONSTRAINT "entity_history_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "entity_history_transaction_id_entity_id_idx" ON "entity_history" ("transaction_id", "entity_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_history_entity_id_seq_idx" ON "entity_history" ("entity_id", "seq")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_history_group_id_seq_idx" ON "entity_history" ("group_id", "seq")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_history_group_id_actor_id_seq_idx" ON "entity_history" ("group_id", "actor_id", "seq")`,
    );
    await queryRunner.query(
      `CREATE INDEX "entity_history_changed_at_idx" ON "entity_history" ("changed_at")`,
    );

    await queryRunner.query(
      `CREATE TYPE "entity_history_change" AS (group_id uuid, entity_id uuid, entity_name text, action text, changes jsonb)`,
    );
    // What the history keeps of an entity, named as the API names it.
    await queryRunner.query(
      `CREATE FUNCTION "entity_history_values"(e entities) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
         SELECT jsonb_build_object(
           'name', e.name, 'description', e.description, 'entityTypeId', e.entity_type_id,
           'parentId', e.parent_id, 'quantity', e.quantity, 'assetId', e.asset_id,
           'serialNumber', e.serial_number, 'modelNumber', e.model_number,
           'manufacturer', e.manufacturer, 'insured', e.insured, 'archived', e.archived,
           'lifetimeWarranty', e.lifetime_warranty, 'warrantyExpires', e.warranty_expires,
           'warrantyDetails', e.warranty_details, 'purchaseDate', e.purchase_date,
           'purchaseFrom', e.purchase_from, 'purchasePrice', e.purchase_price,
           'soldDate', e.sold_date, 'soldTo', e.sold_to, 'soldPrice', e.sold_price,
           'soldNotes', e.sold_notes, 'notes', e.notes,
           'syncChildEntityLocations', e.sync_child_entity_locations, 'importRef', e.import_ref)
       $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "entity_history_field_value"(type text, text_value text, number_value bigint, boolean_value boolean, time_value timestamptz)
       RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
         SELECT CASE type WHEN 'number' THEN to_jsonb(number_value)
                          WHEN 'boolean' THEN to_jsonb(boolean_value)
                          WHEN 'time' THEN to_jsonb(time_value)
                          ELSE to_jsonb(text_value) END
       $$`,
    );
    // What a created or deleted entity had: its values that are not empty, zero or false.
    await queryRunner.query(
      `CREATE FUNCTION "entity_history_present"(entity_values jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
         SELECT coalesce(jsonb_object_agg(k, v), '{}') FROM jsonb_each(entity_values) AS e(k, v)
         WHERE v NOT IN ('null', '""', 'false', '0')
       $$`,
    );
    // The keys whose values differ, each as {before, after}; a missing key is a null.
    await queryRunner.query(
      `CREATE FUNCTION "entity_history_diff"(before jsonb, after jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
         SELECT coalesce(jsonb_object_agg(k, jsonb_build_object('before', before -> k, 'after', after -> k)), '{}')
         FROM (SELECT jsonb_object_keys(coalesce(before, '{}') || coalesce(after, '{}')) AS k) keys
         WHERE coalesce(before -> k, 'null') IS DISTINCT FROM coalesce(after -> k, 'null')
       $$`,
    );
    // Two changes in sequence as one: each field's first before and last after.
    await queryRunner.query(
      `CREATE FUNCTION "entity_history_merge"(earlier jsonb, later jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
         SELECT coalesce(jsonb_object_agg(k, v), '{}') FROM (
           SELECT k, jsonb_build_object('before', coalesce(earlier -> k, later -> k) -> 'before',
                                        'after', coalesce(later -> k, earlier -> k) -> 'after') AS v
           FROM (SELECT jsonb_object_keys(earlier || later) AS k) keys) merged
         WHERE v -> 'before' IS DISTINCT FROM v -> 'after'
       $$`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "entity_history_actor"() RETURNS jsonb LANGUAGE plpgsql AS $$
       DECLARE
         resolved text := current_setting('trove.history_actor', true);
         claimed jsonb := nullif(current_setting('trove.actor', true), '')::jsonb;
         who record;
         result jsonb;
       BEGIN
         IF coalesce(resolved, '') <> '' THEN RETURN resolved::jsonb; END IF;
         IF claimed IS NULL THEN
           result := jsonb_build_object('type', 'system', 'id', NULL, 'name', 'Trove', 'apiKey', NULL, 'issuer', NULL);
         ELSE
           SELECT u.id, u.name, u.oidc_issuer,
                  (SELECT t.single_sign_on FROM auth_tokens t WHERE t.id = (claimed ->> 'tokenId')::uuid) AS sso,
                  (SELECT jsonb_build_object('id', k.id, 'name', k.name) FROM api_keys k
                    WHERE k.id = (claimed ->> 'apiKeyId')::uuid) AS api_key
             INTO who FROM users u WHERE u.id = (claimed ->> 'userId')::uuid;
           result := jsonb_build_object(
             'type', CASE WHEN claimed ? 'apiKeyId' THEN 'apiKey' WHEN coalesce(who.sso, false) THEN 'sso' ELSE 'user' END,
             'id', claimed ->> 'userId', 'name', who.name,
             'apiKey', CASE WHEN claimed ? 'apiKeyId' THEN who.api_key END,
             'issuer', CASE WHEN coalesce(who.sso, false) THEN who.oidc_issuer END);
         END IF;
         PERFORM set_config('trove.history_actor', result::text, true);
         RETURN result;
       END
       $$`,
    );
    // Writes (or merges into this transaction's row) the changes of one statement; changes of
    // entities whose group is being deleted are not kept.
    await queryRunner.query(
      `CREATE FUNCTION "entity_history_write"(changed entity_history_change[]) RETURNS void LANGUAGE plpgsql AS $$
       DECLARE actor jsonb;
       BEGIN
         IF NOT EXISTS (SELECT 1 FROM unnest(changed) c WHERE c.changes <> '{}' OR c.action <> 'update') THEN
           RETURN;
         END IF;
         actor := entity_history_actor();
         INSERT INTO entity_history AS h (group_id, entity_id, entity_name, transaction_id, actor_id, actor, operation, action, changes)
         SELECT c.group_id, c.entity_id, c.entity_name, txid_current(), (actor ->> 'id')::uuid, actor,
                coalesce(nullif(current_setting('trove.operation', true), ''), 'system'), c.action, c.changes
         FROM unnest(changed) c
         WHERE (c.changes <> '{}' OR c.action <> 'update')
           AND EXISTS (SELECT 1 FROM groups g WHERE g.id = c.group_id)
         ORDER BY c.entity_id
         ON CONFLICT (transaction_id, entity_id) DO UPDATE SET
           changes = entity_history_merge(h.changes, excluded.changes),
           entity_name = excluded.entity_name,
           action = CASE WHEN excluded.action = 'delete' THEN 'delete'
                         WHEN h.action = 'create' THEN 'create' ELSE excluded.action END;
       END
       $$`,
    );

    await createHistoryTriggers(queryRunner, TRACKED);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropHistoryTriggers(queryRunner, TRACKED);
    await queryRunner.query(`DROP FUNCTION "entity_history_write"(entity_history_change[])`);
    await queryRunner.query(`DROP FUNCTION "entity_history_actor"()`);
    await queryRunner.query(`DROP FUNCTION "entity_history_merge"(jsonb, jsonb)`);
    await queryRunner.query(`DROP FUNCTION "entity_history_diff"(jsonb, jsonb)`);
    await queryRunner.query(`DROP FUNCTION "entity_history_present"(jsonb)`);
    await queryRunner.query(
      `DROP FUNCTION "entity_history_field_value"(text, text, bigint, boolean, timestamptz)`,
    );
    await queryRunner.query(`DROP FUNCTION "entity_history_values"(entities)`);
    await queryRunner.query(`DROP TYPE "entity_history_change"`);
    await queryRunner.query(`DROP TABLE "entity_history"`);
    await queryRunner.query(`ALTER TABLE "auth_tokens" DROP COLUMN "single_sign_on"`);
  }
}
