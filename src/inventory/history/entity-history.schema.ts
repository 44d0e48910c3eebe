import type { DatabaseLogic } from '../../platform/database/schema/database-logic.js';

/**
 * `entity_history`: the history of every change to an entity and to what it holds (its fields,
 * tag links, attachments, stock settings, stock adjustments and check-outs), written by statement triggers on those
 * tables in the transaction of the change, however it was made: each changed row becomes one
 * entry with its fields before and after, attributed to who made the change and through which
 * operation (`trove.actor` and `trove.operation`, set for every unit of work by
 * `platform/database/change-attribution.ts`; the system when unset). The history module reads
 * and purges what is written here.
 */
export const ENTITY_HISTORY: DatabaseLogic = {
  tables: [],
  statements: [
    `CREATE OR REPLACE FUNCTION public.entity_history_actor()
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
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
       $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_history_present(entity_values jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
         SELECT coalesce(jsonb_object_agg(k, v), '{}') FROM jsonb_each(entity_values) AS e(k, v)
         WHERE v NOT IN ('null', '""', 'false', '0')
       $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_history_field_value(type text, text_value text, number_value bigint, boolean_value boolean, time_value timestamp with time zone)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
         SELECT CASE type WHEN 'number' THEN to_jsonb(number_value)
                          WHEN 'boolean' THEN to_jsonb(boolean_value)
                          WHEN 'time' THEN to_jsonb(time_value)
                          ELSE to_jsonb(text_value) END
       $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_history_values(e entities)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
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
       $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_history_diff(before jsonb, after jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
         SELECT coalesce(jsonb_object_agg(k, jsonb_build_object('before', before -> k, 'after', after -> k)), '{}')
         FROM (SELECT jsonb_object_keys(coalesce(before, '{}') || coalesce(after, '{}')) AS k) keys
         WHERE coalesce(before -> k, 'null') IS DISTINCT FROM coalesce(after -> k, 'null')
       $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_history_merge(earlier jsonb, later jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
         SELECT coalesce(jsonb_object_agg(k, v), '{}') FROM (
           SELECT k, jsonb_build_object('before', coalesce(earlier -> k, later -> k) -> 'before',
                                        'after', coalesce(later -> k, earlier -> k) -> 'after') AS v
           FROM (SELECT jsonb_object_keys(earlier || later) AS k) keys) merged
         WHERE v -> 'before' IS DISTINCT FROM v -> 'after'
       $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_history_write(changed entity_history_change[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
       $function$`,
    `CREATE OR REPLACE FUNCTION public.entities_history_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(n.group_id, n.id, n.name, 'create', entity_history_diff(NULL, entity_history_present(entity_history_values(n))))::entity_history_change FROM new_rows n));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.entities_history_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(n.group_id, n.id, n.name, 'update', entity_history_diff(entity_history_values(o), entity_history_values(n)))::entity_history_change
             FROM old_rows o JOIN new_rows n ON n.id = o.id));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.entities_history_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(o.group_id, o.id, o.name, 'delete', entity_history_diff(entity_history_present(entity_history_values(o)), NULL))::entity_history_change FROM old_rows o));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_fields_history_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT NULL::uuid AS entity_id, NULL::jsonb AS v WHERE false) b FULL JOIN (SELECT entity_id, jsonb_object_agg('fields.' || name, entity_history_field_value(type, text_value, number_value, boolean_value, time_value)) AS v
   FROM new_rows GROUP BY entity_id) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_fields_history_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT entity_id, jsonb_object_agg('fields.' || name, entity_history_field_value(type, text_value, number_value, boolean_value, time_value)) AS v
   FROM old_rows GROUP BY entity_id) b FULL JOIN (SELECT entity_id, jsonb_object_agg('fields.' || name, entity_history_field_value(type, text_value, number_value, boolean_value, time_value)) AS v
   FROM new_rows GROUP BY entity_id) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_fields_history_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT entity_id, jsonb_object_agg('fields.' || name, entity_history_field_value(type, text_value, number_value, boolean_value, time_value)) AS v
   FROM old_rows GROUP BY entity_id) b FULL JOIN (SELECT NULL::uuid AS entity_id, NULL::jsonb AS v WHERE false) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_tags_history_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update',
                entity_history_diff(jsonb_build_object('tagIds', to_jsonb(ARRAY(SELECT unnest(now.ids) EXCEPT SELECT tag_id FROM new_rows r WHERE r.entity_id = e.id ORDER BY 1))),
                                    jsonb_build_object('tagIds', to_jsonb(now.ids))))::entity_history_change
              FROM (SELECT DISTINCT entity_id FROM new_rows) t
              JOIN entities e ON e.id = t.entity_id
              CROSS JOIN LATERAL (SELECT ARRAY(SELECT tag_id FROM entity_tags l WHERE l.entity_id = e.id ORDER BY 1) AS ids) now));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_tags_history_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update',
                entity_history_diff(jsonb_build_object('tagIds', to_jsonb(ARRAY(SELECT unnest(now.ids) UNION SELECT tag_id FROM old_rows r WHERE r.entity_id = e.id ORDER BY 1))),
                                    jsonb_build_object('tagIds', to_jsonb(now.ids))))::entity_history_change
              FROM (SELECT DISTINCT entity_id FROM old_rows) t
              JOIN entities e ON e.id = t.entity_id
              CROSS JOIN LATERAL (SELECT ARRAY(SELECT tag_id FROM entity_tags l WHERE l.entity_id = e.id ORDER BY 1) AS ids) now));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.attachments_history_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT NULL::uuid AS entity_id, NULL::jsonb AS v WHERE false) b FULL JOIN (SELECT entity_id, jsonb_object_agg('attachments.' || id, jsonb_build_object('title', title, 'type', type, 'primary', "primary", 'mimeType', mime_type)) AS v
   FROM new_rows WHERE type <> 'thumbnail' GROUP BY entity_id) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.attachments_history_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT entity_id, jsonb_object_agg('attachments.' || id, jsonb_build_object('title', title, 'type', type, 'primary', "primary", 'mimeType', mime_type)) AS v
   FROM old_rows WHERE type <> 'thumbnail' GROUP BY entity_id) b FULL JOIN (SELECT entity_id, jsonb_object_agg('attachments.' || id, jsonb_build_object('title', title, 'type', type, 'primary', "primary", 'mimeType', mime_type)) AS v
   FROM new_rows WHERE type <> 'thumbnail' GROUP BY entity_id) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.attachments_history_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT entity_id, jsonb_object_agg('attachments.' || id, jsonb_build_object('title', title, 'type', type, 'primary', "primary", 'mimeType', mime_type)) AS v
   FROM old_rows WHERE type <> 'thumbnail' GROUP BY entity_id) b FULL JOIN (SELECT NULL::uuid AS entity_id, NULL::jsonb AS v WHERE false) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_stock_history_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT NULL::uuid AS entity_id, NULL::jsonb AS v WHERE false) b FULL JOIN (SELECT entity_id, jsonb_build_object('stock.minQuantity', min_quantity, 'stock.reorderQuantity', reorder_quantity, 'stock.expiresOn', expires_on, 'stock.notes', notes) AS v
   FROM new_rows) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_stock_history_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT entity_id, jsonb_build_object('stock.minQuantity', min_quantity, 'stock.reorderQuantity', reorder_quantity, 'stock.expiresOn', expires_on, 'stock.notes', notes) AS v
   FROM old_rows) b FULL JOIN (SELECT entity_id, jsonb_build_object('stock.minQuantity', min_quantity, 'stock.reorderQuantity', reorder_quantity, 'stock.expiresOn', expires_on, 'stock.notes', notes) AS v
   FROM new_rows) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_stock_history_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT entity_id, jsonb_build_object('stock.minQuantity', min_quantity, 'stock.reorderQuantity', reorder_quantity, 'stock.expiresOn', expires_on, 'stock.notes', notes) AS v
   FROM old_rows) b FULL JOIN (SELECT NULL::uuid AS entity_id, NULL::jsonb AS v WHERE false) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.checkouts_history_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT NULL::uuid AS entity_id, NULL::jsonb AS v WHERE false) b FULL JOIN (SELECT entity_id, jsonb_object_agg('checkouts.' || id, jsonb_build_object('quantity', quantity, 'returnedQuantity', returned_quantity, 'memberId', member_id, 'borrower', borrower, 'dueOn', due_on, 'notes', notes)) AS v
   FROM new_rows GROUP BY entity_id) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.checkouts_history_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT entity_id, jsonb_object_agg('checkouts.' || id, jsonb_build_object('quantity', quantity, 'returnedQuantity', returned_quantity, 'memberId', member_id, 'borrower', borrower, 'dueOn', due_on, 'notes', notes)) AS v
   FROM old_rows GROUP BY entity_id) b FULL JOIN (SELECT entity_id, jsonb_object_agg('checkouts.' || id, jsonb_build_object('quantity', quantity, 'returnedQuantity', returned_quantity, 'memberId', member_id, 'borrower', borrower, 'dueOn', due_on, 'notes', notes)) AS v
   FROM new_rows GROUP BY entity_id) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.checkouts_history_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(b.v, a.v))::entity_history_change
          FROM (SELECT entity_id, jsonb_object_agg('checkouts.' || id, jsonb_build_object('quantity', quantity, 'returnedQuantity', returned_quantity, 'memberId', member_id, 'borrower', borrower, 'dueOn', due_on, 'notes', notes)) AS v
   FROM old_rows GROUP BY entity_id) b FULL JOIN (SELECT NULL::uuid AS entity_id, NULL::jsonb AS v WHERE false) a ON a.entity_id = b.entity_id
          JOIN entities e ON e.id = coalesce(a.entity_id, b.entity_id)));
           RETURN NULL;
         END
         $function$`,
    `CREATE OR REPLACE FUNCTION public.stock_adjustments_history_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(e.group_id, e.id, e.name, 'update', entity_history_diff(NULL, a.v))::entity_history_change
          FROM (SELECT entity_id, jsonb_object_agg('stock.adjustments.' || id, jsonb_build_object('quantityBefore', quantity_before, 'quantityAfter', quantity_after, 'reason', reason)) AS v
   FROM new_rows GROUP BY entity_id) a
          JOIN entities e ON e.id = a.entity_id));
           RETURN NULL;
         END
         $function$`,
    `CREATE TRIGGER entities_history_after_insert AFTER INSERT ON public.entities REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entities_history_after_insert()`,
    `CREATE TRIGGER entities_history_after_update AFTER UPDATE ON public.entities REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entities_history_after_update()`,
    `CREATE TRIGGER entities_history_after_delete AFTER DELETE ON public.entities REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entities_history_after_delete()`,
    `CREATE TRIGGER entity_fields_history_after_insert AFTER INSERT ON public.entity_fields REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_fields_history_after_insert()`,
    `CREATE TRIGGER entity_fields_history_after_update AFTER UPDATE ON public.entity_fields REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_fields_history_after_update()`,
    `CREATE TRIGGER entity_fields_history_after_delete AFTER DELETE ON public.entity_fields REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_fields_history_after_delete()`,
    `CREATE TRIGGER entity_tags_history_after_insert AFTER INSERT ON public.entity_tags REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_tags_history_after_insert()`,
    `CREATE TRIGGER entity_tags_history_after_delete AFTER DELETE ON public.entity_tags REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_tags_history_after_delete()`,
    `CREATE TRIGGER attachments_history_after_insert AFTER INSERT ON public.attachments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION attachments_history_after_insert()`,
    `CREATE TRIGGER attachments_history_after_update AFTER UPDATE ON public.attachments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION attachments_history_after_update()`,
    `CREATE TRIGGER attachments_history_after_delete AFTER DELETE ON public.attachments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION attachments_history_after_delete()`,
    `CREATE TRIGGER entity_stock_history_after_insert AFTER INSERT ON public.entity_stock REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_stock_history_after_insert()`,
    `CREATE TRIGGER entity_stock_history_after_update AFTER UPDATE ON public.entity_stock REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_stock_history_after_update()`,
    `CREATE TRIGGER entity_stock_history_after_delete AFTER DELETE ON public.entity_stock REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_stock_history_after_delete()`,
    `CREATE TRIGGER checkouts_history_after_insert AFTER INSERT ON public.checkouts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION checkouts_history_after_insert()`,
    `CREATE TRIGGER checkouts_history_after_update AFTER UPDATE ON public.checkouts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION checkouts_history_after_update()`,
    `CREATE TRIGGER checkouts_history_after_delete AFTER DELETE ON public.checkouts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION checkouts_history_after_delete()`,
    `CREATE TRIGGER stock_adjustments_history_after_insert AFTER INSERT ON public.stock_adjustments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_adjustments_history_after_insert()`,
  ],
};
