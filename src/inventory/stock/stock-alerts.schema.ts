import type { DatabaseLogic } from '../../platform/database/schema/database-logic.js';

/**
 * `stock_alerts`: an outbox of low-stock alerts, one row per entity that has just come to or below
 * its stock minimum, written with `entity_stock.low_alerted` (so that each crossing alerts once) in
 * the transaction of the change, however it was made (an edit, a bulk change, an import), and
 * announced on `trove_stock_alerts`. The reminders module drains it into notifier messages
 * (`StockAlertsService`, through `StockService.claimAlerts`). There for correctness, not speed.
 */
export const STOCK_ALERTS: DatabaseLogic = {
  tables: ['stock_alerts'],
  statements: [
    `CREATE TABLE stock_alerts (
  id bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
  entity_id uuid NOT NULL,
  group_id uuid NOT NULL,
  created_at timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT stock_alerts_pkey PRIMARY KEY (id),
  CONSTRAINT stock_alerts_entity_id_fkey FOREIGN KEY (entity_id) REFERENCES entities(id) ON DELETE CASCADE,
  CONSTRAINT stock_alerts_group_id_fkey FOREIGN KEY (group_id) REFERENCES groups(id) ON DELETE CASCADE
)`,
    `CREATE INDEX stock_alerts_entity_id_idx ON public.stock_alerts USING btree (entity_id)`,
    `CREATE INDEX stock_alerts_group_id_idx ON public.stock_alerts USING btree (group_id)`,
    `CREATE OR REPLACE FUNCTION public.entity_stock_check(of_entities uuid[])
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
       END $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_stock_after_entity()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         IF EXISTS (SELECT 1 FROM entity_stock WHERE entity_id = NEW.id) THEN
           PERFORM entity_stock_check(ARRAY[NEW.id]);
         END IF;
         RETURN NULL;
       END $function$`,
    `CREATE OR REPLACE FUNCTION public.entity_stock_after_stock()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
       BEGIN
         PERFORM entity_stock_check(ARRAY[NEW.entity_id]);
         RETURN NULL;
       END $function$`,
    `CREATE TRIGGER entities_stock_changed AFTER UPDATE OF quantity, archived ON public.entities FOR EACH ROW WHEN (((old.quantity IS DISTINCT FROM new.quantity) OR (old.archived IS DISTINCT FROM new.archived))) EXECUTE FUNCTION entity_stock_after_entity()`,
    `CREATE TRIGGER entity_stock_added AFTER INSERT ON public.entity_stock FOR EACH ROW EXECUTE FUNCTION entity_stock_after_stock()`,
    `CREATE TRIGGER entity_stock_minimum_changed AFTER UPDATE OF min_quantity ON public.entity_stock FOR EACH ROW WHEN ((old.min_quantity IS DISTINCT FROM new.min_quantity)) EXECUTE FUNCTION entity_stock_after_stock()`,
  ],
};
