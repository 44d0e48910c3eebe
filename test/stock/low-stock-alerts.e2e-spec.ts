import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StockAlertsService } from '../../src/operations/reminders/stock-alerts.service.js';
import { csv, importOk } from '../entities-import/import-helpers.js';
import type { EntityBody } from '../support/api.js';
import { signUp, type Session } from '../support/factories.js';
import {
  addNotifier,
  as,
  makeEntity,
  putStock,
  settled,
  startWebhook,
  useTestApp,
  type WebhookStandIn,
} from './stock-helpers.js';

describe('low-stock alerts', () => {
  let webhook: WebhookStandIn;
  let ada: Session;
  let eve: Session;
  let adaGroup: string;

  const app = useTestApp({ TROVE_OUTBOUND_ALLOW_NETS: '127.0.0.1/32' });
  beforeAll(async () => {
    webhook = await startWebhook();
    ada = await signUp(app.trove, { name: 'Ada' });
    eve = await signUp(app.trove, { name: 'Eve' });
    adaGroup = (
      (await as(app.trove, ada, 'get', '/api/v1/groups').expect(200)).body as {
        name: string;
      }
    ).name;
    const generic = `generic+http://127.0.0.1:${webhook.port}`;
    await addNotifier(app.trove, ada, `${generic}/ada`);
    await addNotifier(app.trove, ada, `${generic}/ada-paused`, false);
    await addNotifier(app.trove, eve, `${generic}/eve`);
  });
  afterAll(async () => {
    await webhook?.close();
  });

  const to = (path: string) => webhook.received.filter((delivery) => delivery.path === path);
  const setQuantity = async (entity: EntityBody, quantity: number) => {
    const response = await as(app.trove, ada, 'patch', `/api/v1/entities/${entity.id}`).send({
      quantity,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    await settled(app.trove);
  };
  const message = (...lines: string[]) => ({
    title: `${adaGroup}: low stock`,
    message: ['At or below the minimum:', ...lines].join('\n'),
  });

  it('sends one message per crossing to or below the minimum, and again after a restock', async () => {
    const coffee = await makeEntity(app.trove, ada, { name: 'Coffee', quantity: 5 });
    await putStock(app.trove, ada, coffee.id, { minQuantity: 2, reorderQuantity: 6 });
    await settled(app.trove);
    const before = to('/ada').length;

    await setQuantity(coffee, 2);
    expect(
      to('/ada')
        .slice(before)
        .map((delivery) => delivery.body),
    ).toEqual([message('- Coffee: 2 left (minimum 2), reorder 6')]);

    await setQuantity(coffee, 1);
    await setQuantity(coffee, 0);
    await setQuantity(coffee, 2);
    expect(to('/ada')).toHaveLength(before + 1);

    await setQuantity(coffee, 3);
    expect(to('/ada')).toHaveLength(before + 1);

    await setQuantity(coffee, 1);
    expect(
      to('/ada')
        .slice(before)
        .map((delivery) => delivery.body),
    ).toEqual([
      message('- Coffee: 2 left (minimum 2), reorder 6'),
      message('- Coffee: 1 left (minimum 2), reorder 6'),
    ]);
    expect(to('/ada-paused')).toEqual([]);
    expect(to('/eve')).toEqual([]);
  });

  it('alerts when a minimum is set that the quantity already meets, once', async () => {
    const tea = await makeEntity(app.trove, ada, { name: 'Tea', quantity: 1 });
    const before = to('/ada').length;

    await putStock(app.trove, ada, tea.id, { minQuantity: 1 });
    await settled(app.trove);
    expect(
      to('/ada')
        .slice(before)
        .map((delivery) => delivery.body),
    ).toEqual([message('- Tea: 1 left (minimum 1), reorder 1')]);

    // Still low after changes to the settings: nothing new. Cleared and set again: a new crossing.
    await putStock(app.trove, ada, tea.id, { minQuantity: 3, notes: 'green' });
    await putStock(app.trove, ada, tea.id, { minQuantity: 3, expiresOn: '2030-01-01' });
    await settled(app.trove);
    expect(to('/ada')).toHaveLength(before + 1);
    await as(app.trove, ada, 'delete', `/api/v1/entities/${tea.id}/stock`).expect(204);
    await putStock(app.trove, ada, tea.id, { minQuantity: 1 });
    await settled(app.trove);
    expect(to('/ada')).toHaveLength(before + 2);
  });

  it('alerts whatever changes the quantity: a full update, a bulk statement, an import', async () => {
    const sugar = await makeEntity(app.trove, ada, { name: 'Sugar', quantity: 4 });
    const salt = await makeEntity(app.trove, ada, { name: 'Salt', quantity: 4 });
    await putStock(app.trove, ada, sugar.id, { minQuantity: 1 });
    await putStock(app.trove, ada, salt.id, { minQuantity: 1 });
    await settled(app.trove);
    const before = to('/ada').length;

    // A full update (PUT) of the entity.
    const full = await as(app.trove, ada, 'get', `/api/v1/entities/${sugar.id}`).expect(200);
    const body = full.body as Record<string, unknown>;
    const updated = await as(app.trove, ada, 'put', `/api/v1/entities/${sugar.id}`).send({
      name: body.name,
      entityTypeId: (body.entityType as { id: string } | undefined)?.id ?? body.entityTypeId,
      quantity: 1,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    await settled(app.trove);
    expect(
      to('/ada')
        .slice(before)
        .map((delivery) => delivery.body),
    ).toEqual([message('- Sugar: 1 left (minimum 1), reorder 1')]);

    // One statement changing many entities: one message listing them.
    await app.trove.query('UPDATE entities SET quantity = 4 WHERE id = ANY($1)', [
      [sugar.id, salt.id],
    ]);
    await app.trove.query('UPDATE entities SET quantity = 0 WHERE id = ANY($1)', [
      [sugar.id, salt.id],
    ]);
    await settled(app.trove);
    expect(
      to('/ada')
        .slice(before + 1)
        .map((delivery) => delivery.body),
    ).toEqual([
      message('- Salt: 0 left (minimum 1), reorder 2', '- Sugar: 0 left (minimum 1), reorder 2'),
    ]);

    // An import that updates existing entities by their import ref.
    await importOk(
      app.trove,
      ada,
      csv([
        ['HB.import_ref', 'HB.location', 'HB.name', 'HB.quantity'],
        ['flour-1', 'Pantry', 'Flour', '5'],
      ]),
    );
    const [flour] = await app.trove.query<{ id: string }>(
      `SELECT id FROM entities WHERE group_id = $1 AND import_ref = 'flour-1'`,
      [ada.groupId],
    );
    await putStock(app.trove, ada, flour.id, { minQuantity: 2, reorderQuantity: 10 });
    await settled(app.trove);
    const beforeImport = to('/ada').length;
    await importOk(
      app.trove,
      ada,
      csv([
        ['HB.import_ref', 'HB.location', 'HB.name', 'HB.quantity'],
        ['flour-1', 'Pantry', 'Flour', '2'],
      ]),
    );
    await settled(app.trove);
    expect(
      to('/ada')
        .slice(beforeImport)
        .map((delivery) => delivery.body),
    ).toEqual([message('- Flour: 2 left (minimum 2), reorder 10')]);
  });

  it('does not alert for archived entities, and alerts once one is unarchived while low', async () => {
    const oil = await makeEntity(app.trove, ada, { name: 'Oil', quantity: 0, archived: true });
    await putStock(app.trove, ada, oil.id, { minQuantity: 1 });
    await settled(app.trove);
    const before = to('/ada').length;
    await app.trove.query('UPDATE entities SET quantity = 0.5 WHERE id = $1', [oil.id]);
    await settled(app.trove);
    expect(to('/ada')).toHaveLength(before);

    await app.trove.query('UPDATE entities SET archived = false WHERE id = $1', [oil.id]);
    await settled(app.trove);
    expect(
      to('/ada')
        .slice(before)
        .map((delivery) => delivery.body),
    ).toEqual([message('- Oil: 0.5 left (minimum 1), reorder 1')]);
  });

  it('the periodic sweep alerts a crossing the triggers did not see', async () => {
    const rice = await makeEntity(app.trove, ada, { name: 'Rice', quantity: 3 });
    await putStock(app.trove, ada, rice.id, { minQuantity: 1 });
    await settled(app.trove);
    const before = to('/ada').length;
    await app.trove.query('ALTER TABLE entities DISABLE TRIGGER entities_stock_changed');
    try {
      await app.trove.query('UPDATE entities SET quantity = 1 WHERE id = $1', [rice.id]);
    } finally {
      await app.trove.query('ALTER TABLE entities ENABLE TRIGGER entities_stock_changed');
    }
    await settled(app.trove);
    expect(to('/ada')).toHaveLength(before);

    await app.trove.app.get(StockAlertsService).sweep();
    await app.trove.app.get(StockAlertsService).sweep();
    await settled(app.trove);
    expect(
      to('/ada')
        .slice(before)
        .map((delivery) => delivery.body),
    ).toEqual([message('- Rice: 1 left (minimum 1), reorder 1')]);
  });

  it('leaves entity writes without stock settings alone', async () => {
    const lamp = await makeEntity(app.trove, ada, { name: 'Lamp', quantity: 0 });
    await setQuantity(lamp, 1);
    expect(
      await app.trove.query('SELECT 1 FROM entity_stock WHERE entity_id = $1', [lamp.id]),
    ).toEqual([]);
    expect(await app.trove.query('SELECT 1 FROM stock_alerts')).toEqual([]);
  });
});
