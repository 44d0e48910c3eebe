import type { MigrationInterface, QueryRunner } from 'typeorm';

/* A copy of RecordEntityHistory's helpers, as they were then. */

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

/** An entity's stock settings as `{"stock.<name>": value}` (not the alert bookkeeping). */
const stockValues = (side: 'old' | 'new'): string =>
  `SELECT entity_id, jsonb_build_object('stock.minQuantity', min_quantity, 'stock.reorderQuantity', reorder_quantity, 'stock.expiresOn', expires_on, 'stock.notes', notes) AS v
   FROM ${side}_rows`;

/** An entity's check-outs as `{"checkouts.<id>": {...}}`. */
const checkoutValues = (side: 'old' | 'new'): string =>
  `SELECT entity_id, jsonb_object_agg('checkouts.' || id, jsonb_build_object('quantity', quantity, 'returnedQuantity', returned_quantity, 'memberId', member_id, 'borrower', borrower, 'dueOn', due_on, 'notes', notes)) AS v
   FROM ${side}_rows GROUP BY entity_id`;

const TRACKED: TrackedTable[] = [
  {
    table: 'entity_stock',
    events: ['INSERT', 'UPDATE', 'DELETE'],
    changes: (event) => childChanges(stockValues, event),
  },
  {
    table: 'checkouts',
    events: ['INSERT', 'UPDATE', 'DELETE'],
    changes: (event) => childChanges(checkoutValues, event),
  },
];

/** Stock settings and check-outs are changes of their entity: recorded in its history too. */
export class RecordStockAndCheckoutHistory1795220640000 implements MigrationInterface {
  name = 'RecordStockAndCheckoutHistory1795220640000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createHistoryTriggers(queryRunner, TRACKED);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await dropHistoryTriggers(queryRunner, TRACKED);
  }
}
