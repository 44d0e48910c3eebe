import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  childChanges,
  createHistoryTriggers,
  dropHistoryTriggers,
  type TrackedTable,
} from './1795220460000-RecordEntityHistory.js';

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
