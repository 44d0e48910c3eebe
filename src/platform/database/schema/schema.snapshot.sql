-- tables

TABLE entity_child_items (
  parent_id uuid NOT NULL,
  entity_type_id uuid NOT NULL,
  quantity numeric NOT NULL
);

TABLE entity_child_values (
  parent_id uuid NOT NULL,
  entity_type_id uuid NOT NULL,
  value numeric NOT NULL
);

TABLE entity_counts (
  group_id uuid NOT NULL,
  entity_type_id uuid NOT NULL,
  archived boolean NOT NULL,
  entities bigint NOT NULL,
  item_value numeric NOT NULL DEFAULT 0,
  lifetime_warranties bigint NOT NULL DEFAULT 0
);

TABLE location_versions (
  group_id uuid NOT NULL,
  tree bigint NOT NULL DEFAULT 0,
  totals bigint NOT NULL DEFAULT 0
);

TABLE stock_alerts (
  id bigint NOT NULL GENERATED ALWAYS AS IDENTITY,
  entity_id uuid NOT NULL,
  group_id uuid NOT NULL,
  created_at timestamp with time zone NOT NULL DEFAULT now()
);

TABLE tag_match_counts (
  tag_id uuid NOT NULL,
  entity_type_id uuid NOT NULL,
  archived boolean NOT NULL,
  entities bigint NOT NULL
);

TABLE tag_matches (
  entity_id uuid NOT NULL,
  tag_id uuid NOT NULL,
  entity_type_id uuid NOT NULL,
  archived boolean NOT NULL,
  name character varying(255) NOT NULL
);

TABLE tag_values (
  tag_id uuid NOT NULL,
  entities bigint NOT NULL,
  value numeric NOT NULL
);

-- constraints

CONSTRAINT entity_child_items_entity_type_id_fkey ON entity_child_items FOREIGN KEY (entity_type_id) REFERENCES entity_types(id) ON DELETE CASCADE;

CONSTRAINT entity_child_items_parent_id_fkey ON entity_child_items FOREIGN KEY (parent_id) REFERENCES entities(id) ON DELETE CASCADE;

CONSTRAINT entity_child_items_pkey ON entity_child_items PRIMARY KEY (parent_id, entity_type_id);

CONSTRAINT entity_child_values_entity_type_id_fkey ON entity_child_values FOREIGN KEY (entity_type_id) REFERENCES entity_types(id) ON DELETE CASCADE;

CONSTRAINT entity_child_values_parent_id_fkey ON entity_child_values FOREIGN KEY (parent_id) REFERENCES entities(id) ON DELETE CASCADE;

CONSTRAINT entity_child_values_pkey ON entity_child_values PRIMARY KEY (parent_id, entity_type_id);

CONSTRAINT entity_counts_entity_type_id_fkey ON entity_counts FOREIGN KEY (entity_type_id) REFERENCES entity_types(id) ON DELETE CASCADE;

CONSTRAINT entity_counts_group_id_fkey ON entity_counts FOREIGN KEY (group_id) REFERENCES groups(id) ON DELETE CASCADE;

CONSTRAINT entity_counts_pkey ON entity_counts PRIMARY KEY (group_id, entity_type_id, archived);

CONSTRAINT location_versions_group_id_fkey ON location_versions FOREIGN KEY (group_id) REFERENCES groups(id) ON DELETE CASCADE;

CONSTRAINT location_versions_pkey ON location_versions PRIMARY KEY (group_id);

CONSTRAINT stock_alerts_entity_id_fkey ON stock_alerts FOREIGN KEY (entity_id) REFERENCES entities(id) ON DELETE CASCADE;

CONSTRAINT stock_alerts_group_id_fkey ON stock_alerts FOREIGN KEY (group_id) REFERENCES groups(id) ON DELETE CASCADE;

CONSTRAINT stock_alerts_pkey ON stock_alerts PRIMARY KEY (id);

CONSTRAINT tag_match_counts_tag_id_fkey ON tag_match_counts FOREIGN KEY (tag_id) REFERENCES tags(id) ON DELETE CASCADE;

CONSTRAINT tag_matches_pkey ON tag_matches PRIMARY KEY (entity_id, tag_id);

CONSTRAINT tag_matches_tag_id_fkey ON tag_matches FOREIGN KEY (tag_id) REFERENCES tags(id) ON DELETE CASCADE;

CONSTRAINT tag_values_pkey ON tag_values PRIMARY KEY (tag_id);

CONSTRAINT tag_values_tag_id_fkey ON tag_values FOREIGN KEY (tag_id) REFERENCES tags(id) ON DELETE CASCADE;

-- indexes

CREATE INDEX entity_child_items_entity_type_id_idx ON public.entity_child_items USING btree (entity_type_id);

CREATE INDEX entity_child_values_entity_type_id_idx ON public.entity_child_values USING btree (entity_type_id);

CREATE INDEX entity_counts_entity_type_id_idx ON public.entity_counts USING btree (entity_type_id);

CREATE INDEX stock_alerts_entity_id_idx ON public.stock_alerts USING btree (entity_id);

CREATE INDEX stock_alerts_group_id_idx ON public.stock_alerts USING btree (group_id);

CREATE INDEX tag_match_counts_tag_id_idx ON public.tag_match_counts USING btree (tag_id);

CREATE INDEX tag_matches_name_order_idx ON public.tag_matches USING btree (tag_id, lower(((name)::text COLLATE "C")), name COLLATE "C", entity_id) INCLUDE (entity_type_id, archived);

-- triggers

CREATE TRIGGER api_keys_credentials_changed AFTER UPDATE ON public.api_keys FOR EACH ROW WHEN ((((old.user_id IS DISTINCT FROM new.user_id) OR (old.key_hash IS DISTINCT FROM new.key_hash)) OR (old.expires_at IS DISTINCT FROM new.expires_at))) EXECUTE FUNCTION trove_notify_credential_user();

CREATE TRIGGER api_keys_credentials_deleted AFTER DELETE ON public.api_keys FOR EACH ROW EXECUTE FUNCTION trove_notify_credential_user();

CREATE TRIGGER attachments_history_after_delete AFTER DELETE ON public.attachments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION attachments_history_after_delete();

CREATE TRIGGER attachments_history_after_insert AFTER INSERT ON public.attachments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION attachments_history_after_insert();

CREATE TRIGGER attachments_history_after_update AFTER UPDATE ON public.attachments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION attachments_history_after_update();

CREATE TRIGGER auth_roles_credentials_changed AFTER DELETE OR UPDATE ON public.auth_roles FOR EACH ROW EXECUTE FUNCTION trove_notify_credential_role();

CREATE TRIGGER auth_tokens_credentials_changed AFTER UPDATE ON public.auth_tokens FOR EACH ROW EXECUTE FUNCTION trove_notify_credential_user();

CREATE TRIGGER auth_tokens_credentials_deleted AFTER DELETE ON public.auth_tokens FOR EACH ROW WHEN ((old.expires_at > now())) EXECUTE FUNCTION trove_notify_credential_user();

CREATE TRIGGER checkouts_history_after_delete AFTER DELETE ON public.checkouts REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION checkouts_history_after_delete();

CREATE TRIGGER checkouts_history_after_insert AFTER INSERT ON public.checkouts REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION checkouts_history_after_insert();

CREATE TRIGGER checkouts_history_after_update AFTER UPDATE ON public.checkouts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION checkouts_history_after_update();

CREATE TRIGGER entities_counts_after_delete AFTER DELETE ON public.entities REFERENCING OLD TABLE AS old_entities FOR EACH STATEMENT EXECUTE FUNCTION entity_counts_after_delete();

CREATE TRIGGER entities_counts_after_insert AFTER INSERT ON public.entities REFERENCING NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION entity_counts_after_insert();

CREATE TRIGGER entities_counts_after_update AFTER UPDATE ON public.entities REFERENCING OLD TABLE AS old_entities NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION entity_counts_after_update();

CREATE TRIGGER entities_history_after_delete AFTER DELETE ON public.entities REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entities_history_after_delete();

CREATE TRIGGER entities_history_after_insert AFTER INSERT ON public.entities REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entities_history_after_insert();

CREATE TRIGGER entities_history_after_update AFTER UPDATE ON public.entities REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entities_history_after_update();

CREATE TRIGGER entities_location_tree_after_delete AFTER DELETE ON public.entities REFERENCING OLD TABLE AS old_entities FOR EACH STATEMENT EXECUTE FUNCTION location_tree_after_delete();

CREATE TRIGGER entities_location_tree_after_insert AFTER INSERT ON public.entities REFERENCING NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION location_tree_after_insert();

CREATE TRIGGER entities_location_tree_after_update AFTER UPDATE ON public.entities REFERENCING OLD TABLE AS old_entities NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION location_tree_after_update();

CREATE TRIGGER entities_stock_changed AFTER UPDATE OF quantity, archived ON public.entities FOR EACH ROW WHEN (((old.quantity IS DISTINCT FROM new.quantity) OR (old.archived IS DISTINCT FROM new.archived))) EXECUTE FUNCTION entity_stock_after_entity();

CREATE TRIGGER entities_tag_matches_after_update AFTER UPDATE OF name, archived, entity_type_id ON public.entities FOR EACH ROW WHEN ((((old.name)::text IS DISTINCT FROM (new.name)::text) OR (old.archived IS DISTINCT FROM new.archived) OR (old.entity_type_id IS DISTINCT FROM new.entity_type_id))) EXECUTE FUNCTION tag_matches_after_entity_update();

CREATE TRIGGER entities_tag_values_after_update AFTER UPDATE ON public.entities REFERENCING OLD TABLE AS old_entities NEW TABLE AS new_entities FOR EACH STATEMENT EXECUTE FUNCTION tag_values_after_entity_update();

CREATE TRIGGER entities_tag_values_before_delete BEFORE DELETE ON public.entities FOR EACH ROW WHEN ((old.purchase_price <> (0)::numeric)) EXECUTE FUNCTION tag_values_before_entity_delete();

CREATE TRIGGER entity_child_values_location_totals_after_insert AFTER INSERT ON public.entity_child_values REFERENCING NEW TABLE AS changed_values FOR EACH STATEMENT EXECUTE FUNCTION location_totals_after_change();

CREATE TRIGGER entity_child_values_location_totals_after_update AFTER UPDATE ON public.entity_child_values REFERENCING NEW TABLE AS changed_values FOR EACH STATEMENT EXECUTE FUNCTION location_totals_after_change();

CREATE TRIGGER entity_fields_history_after_delete AFTER DELETE ON public.entity_fields REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_fields_history_after_delete();

CREATE TRIGGER entity_fields_history_after_insert AFTER INSERT ON public.entity_fields REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_fields_history_after_insert();

CREATE TRIGGER entity_fields_history_after_update AFTER UPDATE ON public.entity_fields REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_fields_history_after_update();

CREATE TRIGGER entity_stock_added AFTER INSERT ON public.entity_stock FOR EACH ROW EXECUTE FUNCTION entity_stock_after_stock();

CREATE TRIGGER entity_stock_history_after_delete AFTER DELETE ON public.entity_stock REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_stock_history_after_delete();

CREATE TRIGGER entity_stock_history_after_insert AFTER INSERT ON public.entity_stock REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_stock_history_after_insert();

CREATE TRIGGER entity_stock_history_after_update AFTER UPDATE ON public.entity_stock REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_stock_history_after_update();

CREATE TRIGGER entity_stock_minimum_changed AFTER UPDATE OF min_quantity ON public.entity_stock FOR EACH ROW WHEN ((old.min_quantity IS DISTINCT FROM new.min_quantity)) EXECUTE FUNCTION entity_stock_after_stock();

CREATE TRIGGER entity_tags_history_after_delete AFTER DELETE ON public.entity_tags REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_tags_history_after_delete();

CREATE TRIGGER entity_tags_history_after_insert AFTER INSERT ON public.entity_tags REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION entity_tags_history_after_insert();

CREATE TRIGGER entity_tags_matches_after_delete AFTER DELETE ON public.entity_tags REFERENCING OLD TABLE AS changed_links FOR EACH STATEMENT EXECUTE FUNCTION tag_matches_after_link_delete();

CREATE TRIGGER entity_tags_matches_after_insert AFTER INSERT ON public.entity_tags REFERENCING NEW TABLE AS changed_links FOR EACH STATEMENT EXECUTE FUNCTION tag_matches_after_link_insert();

CREATE TRIGGER entity_tags_values_after_delete AFTER DELETE ON public.entity_tags REFERENCING OLD TABLE AS old_links FOR EACH STATEMENT EXECUTE FUNCTION tag_values_after_delete();

CREATE TRIGGER entity_tags_values_after_insert AFTER INSERT ON public.entity_tags REFERENCING NEW TABLE AS new_links FOR EACH STATEMENT EXECUTE FUNCTION tag_values_after_insert();

CREATE TRIGGER entity_types_location_tree_after_update AFTER UPDATE ON public.entity_types REFERENCING OLD TABLE AS old_types NEW TABLE AS new_types FOR EACH STATEMENT EXECUTE FUNCTION location_tree_after_type_update();

CREATE TRIGGER group_memberships_credentials_changed AFTER INSERT OR DELETE OR UPDATE ON public.group_memberships FOR EACH ROW EXECUTE FUNCTION trove_notify_credential_user();

CREATE TRIGGER stock_adjustments_history_after_insert AFTER INSERT ON public.stock_adjustments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_adjustments_history_after_insert();

CREATE TRIGGER tag_matches_counts_after_delete AFTER DELETE ON public.tag_matches REFERENCING OLD TABLE AS old_matches FOR EACH STATEMENT EXECUTE FUNCTION tag_match_counts_after_delete();

CREATE TRIGGER tag_matches_counts_after_insert AFTER INSERT ON public.tag_matches REFERENCING NEW TABLE AS new_matches FOR EACH STATEMENT EXECUTE FUNCTION tag_match_counts_after_insert();

CREATE TRIGGER tag_matches_counts_after_update AFTER UPDATE ON public.tag_matches REFERENCING OLD TABLE AS old_matches NEW TABLE AS new_matches FOR EACH STATEMENT EXECUTE FUNCTION tag_match_counts_after_update();

CREATE TRIGGER tags_matches_after_move AFTER UPDATE OF parent_id ON public.tags FOR EACH ROW WHEN ((old.parent_id IS DISTINCT FROM new.parent_id)) EXECUTE FUNCTION tag_matches_after_tag_move();

CREATE TRIGGER users_credentials_changed AFTER UPDATE ON public.users FOR EACH ROW WHEN ((((((((((old.id IS DISTINCT FROM new.id) OR ((old.email)::text IS DISTINCT FROM (new.email)::text)) OR (old.password_hash IS DISTINCT FROM new.password_hash)) OR (old.is_superuser IS DISTINCT FROM new.is_superuser)) OR (old.activated_on IS DISTINCT FROM new.activated_on)) OR (old.default_group_id IS DISTINCT FROM new.default_group_id)) OR (old.oidc_issuer IS DISTINCT FROM new.oidc_issuer)) OR (old.oidc_subject IS DISTINCT FROM new.oidc_subject)) OR (old.disabled_at IS DISTINCT FROM new.disabled_at))) EXECUTE FUNCTION trove_notify_credential_self();

CREATE TRIGGER users_credentials_deleted AFTER DELETE ON public.users FOR EACH ROW EXECUTE FUNCTION trove_notify_credential_self();

-- functions

CREATE OR REPLACE FUNCTION public.attachments_history_after_delete()
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
         $function$;

CREATE OR REPLACE FUNCTION public.attachments_history_after_insert()
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
         $function$;

CREATE OR REPLACE FUNCTION public.attachments_history_after_update()
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
         $function$;

CREATE OR REPLACE FUNCTION public.checkouts_history_after_delete()
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
         $function$;

CREATE OR REPLACE FUNCTION public.checkouts_history_after_insert()
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
         $function$;

CREATE OR REPLACE FUNCTION public.checkouts_history_after_update()
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
         $function$;

CREATE OR REPLACE FUNCTION public.entities_history_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(o.group_id, o.id, o.name, 'delete', entity_history_diff(entity_history_present(entity_history_values(o)), NULL))::entity_history_change FROM old_rows o));
           RETURN NULL;
         END
         $function$;

CREATE OR REPLACE FUNCTION public.entities_history_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(n.group_id, n.id, n.name, 'create', entity_history_diff(NULL, entity_history_present(entity_history_values(n))))::entity_history_change FROM new_rows n));
           RETURN NULL;
         END
         $function$;

CREATE OR REPLACE FUNCTION public.entities_history_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           PERFORM entity_history_write(ARRAY(SELECT ROW(n.group_id, n.id, n.name, 'update', entity_history_diff(entity_history_values(o), entity_history_values(n)))::entity_history_change
             FROM old_rows o JOIN new_rows n ON n.id = o.id));
           RETURN NULL;
         END
         $function$;

CREATE OR REPLACE FUNCTION public.entity_counts_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT group_id FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities) c
      GROUP BY id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
               lifetime_warranty
      HAVING sum(sign) <> 0)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH net AS (
      SELECT group_id, entity_type_id, archived, sum(sign) AS entities,
             sum(sign * purchase_price * quantity::numeric) AS item_value,
             sum(sign) FILTER (WHERE lifetime_warranty) AS lifetime_warranties
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities) c GROUP BY group_id, entity_type_id, archived
    ), changed AS (
      SELECT group_id, entity_type_id, archived, entities, item_value,
             coalesce(lifetime_warranties, 0) AS lifetime_warranties
      FROM net WHERE entities <> 0 OR item_value <> 0 OR coalesce(lifetime_warranties, 0) <> 0
    ), updated AS (
      UPDATE entity_counts c SET entities = c.entities + d.entities,
        item_value = c.item_value + d.item_value,
        lifetime_warranties = c.lifetime_warranties + d.lifetime_warranties
      FROM changed d
      WHERE c.group_id = d.group_id AND c.entity_type_id = d.entity_type_id AND c.archived = d.archived
      RETURNING c.group_id, c.entity_type_id, c.archived
    )
    INSERT INTO entity_counts (group_id, entity_type_id, archived, entities, item_value, lifetime_warranties)
    SELECT d.group_id, d.entity_type_id, d.archived, d.entities, d.item_value, d.lifetime_warranties
    FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.group_id = d.group_id
                        AND u.entity_type_id = d.entity_type_id AND u.archived = d.archived)
      AND EXISTS (SELECT 1 FROM groups g WHERE g.id = d.group_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);

    WITH changed AS (
      SELECT parent_id, entity_type_id, sum(sign * purchase_price) AS value
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities) c WHERE parent_id IS NOT NULL
      GROUP BY parent_id, entity_type_id HAVING sum(sign * purchase_price) <> 0
    ), updated AS (
      UPDATE entity_child_values v SET value = v.value + d.value FROM changed d
      WHERE v.parent_id = d.parent_id AND v.entity_type_id = d.entity_type_id
      RETURNING v.parent_id, v.entity_type_id
    )
    INSERT INTO entity_child_values (parent_id, entity_type_id, value)
    SELECT d.parent_id, d.entity_type_id, d.value FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.parent_id = d.parent_id
                        AND u.entity_type_id = d.entity_type_id)
      AND EXISTS (SELECT 1 FROM entities p WHERE p.id = d.parent_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);
    
      
    WITH changed AS (
      SELECT parent_id, entity_type_id, sum(quantity) AS quantity FROM (SELECT parent_id, entity_type_id, quantity::numeric * -1 AS quantity
         FROM old_entities WHERE parent_id IS NOT NULL AND NOT archived) c
      GROUP BY parent_id, entity_type_id HAVING sum(quantity) <> 0
    ), updated AS (
      UPDATE entity_child_items i SET quantity = i.quantity + d.quantity FROM changed d
      WHERE i.parent_id = d.parent_id AND i.entity_type_id = d.entity_type_id
      RETURNING i.parent_id, i.entity_type_id
    )
    INSERT INTO entity_child_items (parent_id, entity_type_id, quantity)
    SELECT d.parent_id, d.entity_type_id, d.quantity FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.parent_id = d.parent_id
                        AND u.entity_type_id = d.entity_type_id)
      AND EXISTS (SELECT 1 FROM entities p WHERE p.id = d.parent_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);
      RETURN NULL;
    END
    $function$;

CREATE OR REPLACE FUNCTION public.entity_counts_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT group_id FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c
      GROUP BY id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
               lifetime_warranty
      HAVING sum(sign) <> 0)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH net AS (
      SELECT group_id, entity_type_id, archived, sum(sign) AS entities,
             sum(sign * purchase_price * quantity::numeric) AS item_value,
             sum(sign) FILTER (WHERE lifetime_warranty) AS lifetime_warranties
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c GROUP BY group_id, entity_type_id, archived
    ), changed AS (
      SELECT group_id, entity_type_id, archived, entities, item_value,
             coalesce(lifetime_warranties, 0) AS lifetime_warranties
      FROM net WHERE entities <> 0 OR item_value <> 0 OR coalesce(lifetime_warranties, 0) <> 0
    ), updated AS (
      UPDATE entity_counts c SET entities = c.entities + d.entities,
        item_value = c.item_value + d.item_value,
        lifetime_warranties = c.lifetime_warranties + d.lifetime_warranties
      FROM changed d
      WHERE c.group_id = d.group_id AND c.entity_type_id = d.entity_type_id AND c.archived = d.archived
      RETURNING c.group_id, c.entity_type_id, c.archived
    )
    INSERT INTO entity_counts (group_id, entity_type_id, archived, entities, item_value, lifetime_warranties)
    SELECT d.group_id, d.entity_type_id, d.archived, d.entities, d.item_value, d.lifetime_warranties
    FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.group_id = d.group_id
                        AND u.entity_type_id = d.entity_type_id AND u.archived = d.archived)
      AND EXISTS (SELECT 1 FROM groups g WHERE g.id = d.group_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);

    WITH changed AS (
      SELECT parent_id, entity_type_id, sum(sign * purchase_price) AS value
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c WHERE parent_id IS NOT NULL
      GROUP BY parent_id, entity_type_id HAVING sum(sign * purchase_price) <> 0
    ), updated AS (
      UPDATE entity_child_values v SET value = v.value + d.value FROM changed d
      WHERE v.parent_id = d.parent_id AND v.entity_type_id = d.entity_type_id
      RETURNING v.parent_id, v.entity_type_id
    )
    INSERT INTO entity_child_values (parent_id, entity_type_id, value)
    SELECT d.parent_id, d.entity_type_id, d.value FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.parent_id = d.parent_id
                        AND u.entity_type_id = d.entity_type_id)
      AND EXISTS (SELECT 1 FROM entities p WHERE p.id = d.parent_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);
    
      
    WITH changed AS (
      SELECT parent_id, entity_type_id, sum(quantity) AS quantity FROM (SELECT parent_id, entity_type_id, quantity::numeric * 1 AS quantity
         FROM new_entities WHERE parent_id IS NOT NULL AND NOT archived) c
      GROUP BY parent_id, entity_type_id HAVING sum(quantity) <> 0
    ), updated AS (
      UPDATE entity_child_items i SET quantity = i.quantity + d.quantity FROM changed d
      WHERE i.parent_id = d.parent_id AND i.entity_type_id = d.entity_type_id
      RETURNING i.parent_id, i.entity_type_id
    )
    INSERT INTO entity_child_items (parent_id, entity_type_id, quantity)
    SELECT d.parent_id, d.entity_type_id, d.quantity FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.parent_id = d.parent_id
                        AND u.entity_type_id = d.entity_type_id)
      AND EXISTS (SELECT 1 FROM entities p WHERE p.id = d.parent_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);
      RETURN NULL;
    END
    $function$;

CREATE OR REPLACE FUNCTION public.entity_counts_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
    BEGIN
      
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT group_id FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities UNION ALL SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c
      GROUP BY id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
               lifetime_warranty
      HAVING sum(sign) <> 0)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH net AS (
      SELECT group_id, entity_type_id, archived, sum(sign) AS entities,
             sum(sign * purchase_price * quantity::numeric) AS item_value,
             sum(sign) FILTER (WHERE lifetime_warranty) AS lifetime_warranties
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities UNION ALL SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c GROUP BY group_id, entity_type_id, archived
    ), changed AS (
      SELECT group_id, entity_type_id, archived, entities, item_value,
             coalesce(lifetime_warranties, 0) AS lifetime_warranties
      FROM net WHERE entities <> 0 OR item_value <> 0 OR coalesce(lifetime_warranties, 0) <> 0
    ), updated AS (
      UPDATE entity_counts c SET entities = c.entities + d.entities,
        item_value = c.item_value + d.item_value,
        lifetime_warranties = c.lifetime_warranties + d.lifetime_warranties
      FROM changed d
      WHERE c.group_id = d.group_id AND c.entity_type_id = d.entity_type_id AND c.archived = d.archived
      RETURNING c.group_id, c.entity_type_id, c.archived
    )
    INSERT INTO entity_counts (group_id, entity_type_id, archived, entities, item_value, lifetime_warranties)
    SELECT d.group_id, d.entity_type_id, d.archived, d.entities, d.item_value, d.lifetime_warranties
    FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.group_id = d.group_id
                        AND u.entity_type_id = d.entity_type_id AND u.archived = d.archived)
      AND EXISTS (SELECT 1 FROM groups g WHERE g.id = d.group_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);

    WITH changed AS (
      SELECT parent_id, entity_type_id, sum(sign * purchase_price) AS value
      FROM (SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, -1 AS sign FROM old_entities UNION ALL SELECT id, group_id, entity_type_id, archived, parent_id, purchase_price, quantity,
                lifetime_warranty, 1 AS sign FROM new_entities) c WHERE parent_id IS NOT NULL
      GROUP BY parent_id, entity_type_id HAVING sum(sign * purchase_price) <> 0
    ), updated AS (
      UPDATE entity_child_values v SET value = v.value + d.value FROM changed d
      WHERE v.parent_id = d.parent_id AND v.entity_type_id = d.entity_type_id
      RETURNING v.parent_id, v.entity_type_id
    )
    INSERT INTO entity_child_values (parent_id, entity_type_id, value)
    SELECT d.parent_id, d.entity_type_id, d.value FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.parent_id = d.parent_id
                        AND u.entity_type_id = d.entity_type_id)
      AND EXISTS (SELECT 1 FROM entities p WHERE p.id = d.parent_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);
      
    WITH changed AS (
      SELECT parent_id, entity_type_id, sum(quantity) AS quantity FROM (SELECT parent_id, entity_type_id, quantity::numeric * -1 AS quantity
         FROM old_entities WHERE parent_id IS NOT NULL AND NOT archived UNION ALL SELECT parent_id, entity_type_id, quantity::numeric * 1 AS quantity
         FROM new_entities WHERE parent_id IS NOT NULL AND NOT archived) c
      GROUP BY parent_id, entity_type_id HAVING sum(quantity) <> 0
    ), updated AS (
      UPDATE entity_child_items i SET quantity = i.quantity + d.quantity FROM changed d
      WHERE i.parent_id = d.parent_id AND i.entity_type_id = d.entity_type_id
      RETURNING i.parent_id, i.entity_type_id
    )
    INSERT INTO entity_child_items (parent_id, entity_type_id, quantity)
    SELECT d.parent_id, d.entity_type_id, d.quantity FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.parent_id = d.parent_id
                        AND u.entity_type_id = d.entity_type_id)
      AND EXISTS (SELECT 1 FROM entities p WHERE p.id = d.parent_id)
      AND EXISTS (SELECT 1 FROM entity_types t WHERE t.id = d.entity_type_id);
      RETURN NULL;
    END
    $function$;

CREATE OR REPLACE FUNCTION public.entity_fields_history_after_delete()
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
         $function$;

CREATE OR REPLACE FUNCTION public.entity_fields_history_after_insert()
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
         $function$;

CREATE OR REPLACE FUNCTION public.entity_fields_history_after_update()
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
         $function$;

CREATE OR REPLACE FUNCTION public.entity_history_actor()
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
       $function$;

CREATE OR REPLACE FUNCTION public.entity_history_diff(before jsonb, after jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
         SELECT coalesce(jsonb_object_agg(k, jsonb_build_object('before', before -> k, 'after', after -> k)), '{}')
         FROM (SELECT jsonb_object_keys(coalesce(before, '{}') || coalesce(after, '{}')) AS k) keys
         WHERE coalesce(before -> k, 'null') IS DISTINCT FROM coalesce(after -> k, 'null')
       $function$;

CREATE OR REPLACE FUNCTION public.entity_history_field_value(type text, text_value text, number_value bigint, boolean_value boolean, time_value timestamp with time zone)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
         SELECT CASE type WHEN 'number' THEN to_jsonb(number_value)
                          WHEN 'boolean' THEN to_jsonb(boolean_value)
                          WHEN 'time' THEN to_jsonb(time_value)
                          ELSE to_jsonb(text_value) END
       $function$;

CREATE OR REPLACE FUNCTION public.entity_history_merge(earlier jsonb, later jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
         SELECT coalesce(jsonb_object_agg(k, v), '{}') FROM (
           SELECT k, jsonb_build_object('before', coalesce(earlier -> k, later -> k) -> 'before',
                                        'after', coalesce(later -> k, earlier -> k) -> 'after') AS v
           FROM (SELECT jsonb_object_keys(earlier || later) AS k) keys) merged
         WHERE v -> 'before' IS DISTINCT FROM v -> 'after'
       $function$;

CREATE OR REPLACE FUNCTION public.entity_history_present(entity_values jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
         SELECT coalesce(jsonb_object_agg(k, v), '{}') FROM jsonb_each(entity_values) AS e(k, v)
         WHERE v NOT IN ('null', '""', 'false', '0')
       $function$;

CREATE OR REPLACE FUNCTION public.entity_history_values(e entities)
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
       $function$;

CREATE OR REPLACE FUNCTION public.entity_history_write(changed entity_history_change[])
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
       $function$;

CREATE OR REPLACE FUNCTION public.entity_next_asset_id(target uuid)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
       DECLARE
         highest bigint;
       BEGIN
         PERFORM 1 FROM groups WHERE id = target FOR NO KEY UPDATE;
         SELECT coalesce(max(asset_id), 0) INTO highest FROM entities WHERE group_id = target;
         IF highest = 9223372036854775807 THEN
           RAISE EXCEPTION USING ERRCODE = 'TR409', MESSAGE =
             'the group has used every asset id up to 9223372036854775807; give its highest '
             'asset id a lower number to create more entities';
         END IF;
         RETURN highest + 1;
       END
       $function$;

CREATE OR REPLACE FUNCTION public.entity_stock_after_entity()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         IF EXISTS (SELECT 1 FROM entity_stock WHERE entity_id = NEW.id) THEN
           PERFORM entity_stock_check(ARRAY[NEW.id]);
         END IF;
         RETURN NULL;
       END $function$;

CREATE OR REPLACE FUNCTION public.entity_stock_after_stock()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         PERFORM entity_stock_check(ARRAY[NEW.entity_id]);
         RETURN NULL;
       END $function$;

CREATE OR REPLACE FUNCTION public.entity_stock_check(of_entities uuid[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
       END $function$;

CREATE OR REPLACE FUNCTION public.entity_stock_history_after_delete()
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
         $function$;

CREATE OR REPLACE FUNCTION public.entity_stock_history_after_insert()
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
         $function$;

CREATE OR REPLACE FUNCTION public.entity_stock_history_after_update()
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
         $function$;

CREATE OR REPLACE FUNCTION public.entity_tags_history_after_delete()
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
         $function$;

CREATE OR REPLACE FUNCTION public.entity_tags_history_after_insert()
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
         $function$;

CREATE OR REPLACE FUNCTION public.location_totals_after_change()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE of_groups uuid[];
  BEGIN
    SELECT array_agg(DISTINCT p.group_id) FROM changed_values v
         JOIN entities p ON p.id = v.parent_id INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, 'totals'); END IF;
    RETURN NULL;
  END
  $function$;

CREATE OR REPLACE FUNCTION public.location_tree_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE of_groups uuid[];
  BEGIN
    SELECT array_agg(DISTINCT o.group_id) FROM old_entities o
    JOIN entity_types t ON t.id = o.entity_type_id WHERE t.is_location INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, 'tree'); END IF;
    RETURN NULL;
  END
  $function$;

CREATE OR REPLACE FUNCTION public.location_tree_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE of_groups uuid[];
  BEGIN
    SELECT array_agg(DISTINCT n.group_id) FROM new_entities n
    JOIN entity_types t ON t.id = n.entity_type_id WHERE t.is_location INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, 'tree'); END IF;
    RETURN NULL;
  END
  $function$;

CREATE OR REPLACE FUNCTION public.location_tree_after_type_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE of_groups uuid[];
  BEGIN
    SELECT array_agg(DISTINCT n.group_id) FROM old_types o
         JOIN new_types n ON n.id = o.id WHERE o.is_location IS DISTINCT FROM n.is_location INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, 'tree'); END IF;
    RETURN NULL;
  END
  $function$;

CREATE OR REPLACE FUNCTION public.location_tree_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
  DECLARE of_groups uuid[];
  BEGIN
    SELECT array_agg(DISTINCT g) FROM (
      SELECT o.group_id AS old_group, n.group_id AS new_group FROM old_entities o
      JOIN new_entities n ON n.id = o.id
      WHERE (o.group_id, o.name, o.parent_id, o.entity_type_id)
              IS DISTINCT FROM (n.group_id, n.name, n.parent_id, n.entity_type_id)
        AND EXISTS (SELECT 1 FROM entity_types t
                    WHERE t.id IN (o.entity_type_id, n.entity_type_id) AND t.is_location)
    ) changed CROSS JOIN LATERAL (VALUES (changed.old_group), (changed.new_group)) AS side(g) INTO of_groups;
    IF of_groups IS NOT NULL THEN PERFORM location_versions_raise(of_groups, 'tree'); END IF;
    RETURN NULL;
  END
  $function$;

CREATE OR REPLACE FUNCTION public.location_versions_raise(of_groups uuid[], version text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
       DECLARE tree_step int := CASE WHEN version = 'tree' THEN 1 ELSE 0 END;
       BEGIN
         PERFORM 1 FROM groups g WHERE g.id = ANY(of_groups) ORDER BY g.id FOR NO KEY UPDATE;
         INSERT INTO location_versions AS v (group_id, tree, totals)
           SELECT g.id, tree_step, 1 - tree_step FROM groups g WHERE g.id = ANY(of_groups)
           ORDER BY g.id
           ON CONFLICT (group_id)
           DO UPDATE SET tree = v.tree + tree_step, totals = v.totals + 1 - tree_step;
       END
       $function$;

CREATE OR REPLACE FUNCTION public.stock_adjustments_history_after_insert()
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
         $function$;

CREATE OR REPLACE FUNCTION public.tag_match_counts_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         DECLARE crowded uuid;
         BEGIN
           INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
           SELECT c.tag_id, c.entity_type_id, c.archived, sum(c.n) FROM (SELECT tag_id, entity_type_id, archived, -1 AS n FROM old_matches) c
           WHERE EXISTS (SELECT 1 FROM tags t WHERE t.id = c.tag_id)
           GROUP BY c.tag_id, c.entity_type_id, c.archived HAVING sum(c.n) <> 0;
           FOR crowded IN
             SELECT k.tag_id FROM tag_match_counts k
             WHERE k.tag_id IN (SELECT c.tag_id FROM (SELECT tag_id, entity_type_id, archived, -1 AS n FROM old_matches) c)
             GROUP BY k.tag_id HAVING count(*) > 32
           LOOP
             CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtextextended('tag match counts ' || crowded, 0));
             WITH gone AS (
               DELETE FROM tag_match_counts WHERE tag_id = crowded
               RETURNING entity_type_id, archived, entities
             )
             INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
             SELECT crowded, entity_type_id, archived, sum(entities) FROM gone
             GROUP BY entity_type_id, archived HAVING sum(entities) <> 0;
           END LOOP;
           RETURN NULL;
         END
         $function$;

CREATE OR REPLACE FUNCTION public.tag_match_counts_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         DECLARE crowded uuid;
         BEGIN
           INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
           SELECT c.tag_id, c.entity_type_id, c.archived, sum(c.n) FROM (SELECT tag_id, entity_type_id, archived, 1 AS n FROM new_matches) c
           WHERE EXISTS (SELECT 1 FROM tags t WHERE t.id = c.tag_id)
           GROUP BY c.tag_id, c.entity_type_id, c.archived HAVING sum(c.n) <> 0;
           FOR crowded IN
             SELECT k.tag_id FROM tag_match_counts k
             WHERE k.tag_id IN (SELECT c.tag_id FROM (SELECT tag_id, entity_type_id, archived, 1 AS n FROM new_matches) c)
             GROUP BY k.tag_id HAVING count(*) > 32
           LOOP
             CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtextextended('tag match counts ' || crowded, 0));
             WITH gone AS (
               DELETE FROM tag_match_counts WHERE tag_id = crowded
               RETURNING entity_type_id, archived, entities
             )
             INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
             SELECT crowded, entity_type_id, archived, sum(entities) FROM gone
             GROUP BY entity_type_id, archived HAVING sum(entities) <> 0;
           END LOOP;
           RETURN NULL;
         END
         $function$;

CREATE OR REPLACE FUNCTION public.tag_match_counts_after_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         DECLARE crowded uuid;
         BEGIN
           INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
           SELECT c.tag_id, c.entity_type_id, c.archived, sum(c.n) FROM (SELECT tag_id, entity_type_id, archived, -1 AS n FROM old_matches UNION ALL SELECT tag_id, entity_type_id, archived, 1 AS n FROM new_matches) c
           WHERE EXISTS (SELECT 1 FROM tags t WHERE t.id = c.tag_id)
           GROUP BY c.tag_id, c.entity_type_id, c.archived HAVING sum(c.n) <> 0;
           FOR crowded IN
             SELECT k.tag_id FROM tag_match_counts k
             WHERE k.tag_id IN (SELECT c.tag_id FROM (SELECT tag_id, entity_type_id, archived, -1 AS n FROM old_matches UNION ALL SELECT tag_id, entity_type_id, archived, 1 AS n FROM new_matches) c)
             GROUP BY k.tag_id HAVING count(*) > 32
           LOOP
             CONTINUE WHEN NOT pg_try_advisory_xact_lock(hashtextextended('tag match counts ' || crowded, 0));
             WITH gone AS (
               DELETE FROM tag_match_counts WHERE tag_id = crowded
               RETURNING entity_type_id, archived, entities
             )
             INSERT INTO tag_match_counts (tag_id, entity_type_id, archived, entities)
             SELECT crowded, entity_type_id, archived, sum(entities) FROM gone
             GROUP BY entity_type_id, archived HAVING sum(entities) <> 0;
           END LOOP;
           RETURN NULL;
         END
         $function$;

CREATE OR REPLACE FUNCTION public.tag_matches_after_entity_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         IF coalesce(current_setting('trove.tag_tree_locked', true), '') = '' THEN PERFORM pg_advisory_xact_lock_shared(hashtextextended('tag tree ' || NEW.group_id, 0)); END IF;
         UPDATE tag_matches SET entity_type_id = NEW.entity_type_id, archived = NEW.archived, name = NEW.name
         WHERE entity_id = NEW.id;
         RETURN NULL;
       END
       $function$;

CREATE OR REPLACE FUNCTION public.tag_matches_after_link_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         PERFORM tag_matches_refresh(ARRAY(SELECT DISTINCT entity_id FROM changed_links));
         RETURN NULL;
       END
       $function$;

CREATE OR REPLACE FUNCTION public.tag_matches_after_link_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         IF NOT EXISTS (SELECT 1 FROM changed_links) THEN RETURN NULL; END IF;
         IF coalesce(current_setting('trove.tag_tree_locked', true), '') = '' THEN
           PERFORM pg_advisory_xact_lock_shared(hashtextextended('tag tree ' || g.group_id, 0))
             FROM (SELECT DISTINCT t.group_id FROM changed_links l JOIN tags t ON t.id = l.tag_id ORDER BY 1) g;
         END IF;
         WITH RECURSIVE up(entity_id, tag_id, depth) AS (
    SELECT entity_id, tag_id, 0 FROM changed_links
    UNION
    SELECT u.entity_id, t.parent_id, u.depth + 1 FROM up u JOIN tags t ON t.id = u.tag_id
    WHERE t.parent_id IS NOT NULL AND u.depth < 1000
  ) INSERT INTO tag_matches (entity_id, tag_id, entity_type_id, archived, name)
  SELECT DISTINCT up.entity_id, up.tag_id, e.entity_type_id, e.archived, e.name
  FROM up JOIN entities e ON e.id = up.entity_id
  ORDER BY 1, 2
  ON CONFLICT (entity_id, tag_id) DO NOTHING;
         RETURN NULL;
       END
       $function$;

CREATE OR REPLACE FUNCTION public.tag_matches_after_tag_move()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         PERFORM tag_matches_refresh(ARRAY(SELECT m.entity_id FROM tag_matches m WHERE m.tag_id = NEW.id));
         RETURN NULL;
       END
       $function$;

CREATE OR REPLACE FUNCTION public.tag_matches_refresh(of_entities uuid[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
       BEGIN
         IF cardinality(of_entities) = 0 THEN RETURN; END IF;
         IF coalesce(current_setting('trove.tag_tree_locked', true), '') = '' THEN
           PERFORM 1 FROM entities e WHERE e.id = ANY(of_entities) ORDER BY e.id FOR NO KEY UPDATE;
           PERFORM pg_advisory_xact_lock_shared(hashtextextended('tag tree ' || g.group_id, 0))
             FROM (SELECT DISTINCT e.group_id FROM entities e WHERE e.id = ANY(of_entities) ORDER BY 1) g;
         END IF;
         WITH RECURSIVE up(entity_id, tag_id, depth) AS (
    SELECT entity_id, tag_id, 0 FROM (SELECT entity_id, tag_id FROM entity_tags WHERE entity_id = ANY(of_entities)) links
    UNION
    SELECT u.entity_id, t.parent_id, u.depth + 1 FROM up u JOIN tags t ON t.id = u.tag_id
    WHERE t.parent_id IS NOT NULL AND u.depth < 1000
  ),
         wanted AS (SELECT DISTINCT entity_id, tag_id FROM up),
         removed AS (
           DELETE FROM tag_matches m WHERE m.entity_id = ANY(of_entities)
             AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.entity_id = m.entity_id AND w.tag_id = m.tag_id)
         )
         INSERT INTO tag_matches (entity_id, tag_id, entity_type_id, archived, name)
  SELECT DISTINCT up.entity_id, up.tag_id, e.entity_type_id, e.archived, e.name
  FROM up JOIN entities e ON e.id = up.entity_id
  ORDER BY 1, 2
  ON CONFLICT (entity_id, tag_id) DO NOTHING;
       END
       $function$;

CREATE OR REPLACE FUNCTION public.tag_values_after_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT t.group_id FROM old_links l JOIN tags t ON t.id = l.tag_id)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH changed AS (
      SELECT l.tag_id, -1 * count(*) AS entities,
             -1 * coalesce(sum(e.purchase_price), 0) AS value
      FROM old_links l LEFT JOIN entities e ON e.id = l.entity_id
      GROUP BY l.tag_id
    ), updated AS (
      UPDATE tag_values v SET entities = v.entities + d.entities, value = v.value + d.value
      FROM changed d WHERE v.tag_id = d.tag_id
      RETURNING v.tag_id
    )
    INSERT INTO tag_values (tag_id, entities, value)
    SELECT d.tag_id, d.entities, d.value FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.tag_id = d.tag_id)
      AND EXISTS (SELECT 1 FROM tags t WHERE t.id = d.tag_id);
           RETURN NULL;
         END
         $function$;

CREATE OR REPLACE FUNCTION public.tag_values_after_entity_update()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  -- After entity_counts_after_update (the triggers fire in name order), under its lock of the
  -- changed entities' groups.
  UPDATE tag_values v SET value = v.value + d.value
  FROM (SELECT et.tag_id, sum(n.purchase_price - o.purchase_price) AS value
        FROM new_entities n JOIN old_entities o ON o.id = n.id
        JOIN entity_tags et ON et.entity_id = n.id
        WHERE n.purchase_price <> o.purchase_price GROUP BY et.tag_id) d
  WHERE v.tag_id = d.tag_id;
  RETURN NULL;
END
$function$;

CREATE OR REPLACE FUNCTION public.tag_values_after_insert()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
         BEGIN
           
    PERFORM 1 FROM groups g WHERE g.id IN (
      SELECT t.group_id FROM new_links l JOIN tags t ON t.id = l.tag_id)
    ORDER BY g.id FOR NO KEY UPDATE;

    WITH changed AS (
      SELECT l.tag_id, 1 * count(*) AS entities,
             1 * coalesce(sum(e.purchase_price), 0) AS value
      FROM new_links l LEFT JOIN entities e ON e.id = l.entity_id
      GROUP BY l.tag_id
    ), updated AS (
      UPDATE tag_values v SET entities = v.entities + d.entities, value = v.value + d.value
      FROM changed d WHERE v.tag_id = d.tag_id
      RETURNING v.tag_id
    )
    INSERT INTO tag_values (tag_id, entities, value)
    SELECT d.tag_id, d.entities, d.value FROM changed d
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.tag_id = d.tag_id)
      AND EXISTS (SELECT 1 FROM tags t WHERE t.id = d.tag_id);
           RETURN NULL;
         END
         $function$;

CREATE OR REPLACE FUNCTION public.tag_values_before_entity_delete()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         PERFORM 1 FROM groups g WHERE g.id = OLD.group_id FOR NO KEY UPDATE;
         UPDATE tag_values v SET value = v.value - OLD.purchase_price
         FROM entity_tags et WHERE et.entity_id = OLD.id AND v.tag_id = et.tag_id;
         RETURN OLD;
       END
       $function$;

CREATE OR REPLACE FUNCTION public.trove_notify_credential_role()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        PERFORM pg_notify('trove_credentials', t.user_id::text)
          FROM "auth_tokens" t
          WHERE t.id IN (OLD.token_id, CASE WHEN TG_OP = 'UPDATE' THEN NEW.token_id END);
        RETURN NULL;
      END $function$;

CREATE OR REPLACE FUNCTION public.trove_notify_credential_self()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        PERFORM pg_notify('trove_credentials', OLD.id::text);
        RETURN NULL;
      END $function$;

CREATE OR REPLACE FUNCTION public.trove_notify_credential_user()
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
      END $function$;
