import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NotifiersService } from '../../src/operations/notifiers/notifiers.service.js';
import { StockAlertsService } from '../../src/operations/reminders/stock-alerts.service.js';
import {
  checkOut,
  entityCheckouts,
  FUTURE,
  returnCheckout,
  type CheckoutBody,
} from '../checkouts/checkout-helpers.js';
import { as, useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { makeEntity, putStock, settled, stockPath } from '../stock/stock-helpers.js';
import {
  type ExportBody,
  exportZip,
  importZip,
  restoreZip,
  unzip,
  waitForJob,
  zipOf,
} from './backup-helpers.js';

const NAMES = ['Coffee', 'Rice', 'Drill'];

/** What the API shows of each entity's stock settings and check-outs, by entity name. */
async function stockAndCheckouts(trove: TestApp, session: Session) {
  const list = await as(trove, session, 'get', '/api/v1/entities?pageSize=100').expect(200);
  const items = (list.body as { items: { id: string; name: string }[] }).items;
  const result: Record<string, { stock: unknown; checkouts: CheckoutBody[] }> = {};
  for (const name of NAMES) {
    const id = items.find((item) => item.name === name)!.id;
    const stock = await as(trove, session, 'get', stockPath(id)).expect(200);
    result[name] = { stock: stock.body, checkouts: await entityCheckouts(trove, session, id) };
  }
  return result;
}

/** The same, with the ids of the rows themselves (which a restore renews) left out. */
function withoutOwnIds(shown: Awaited<ReturnType<typeof stockAndCheckouts>>) {
  return Object.fromEntries(
    Object.entries(shown).map(([name, { stock, checkouts }]) => {
      const { entityId: _entityId, ...settings } = stock as Record<string, unknown>;
      return [
        name,
        {
          stock: settings,
          checkouts: checkouts.map(({ id: _id, entityId: _entity, ...rest }) => rest),
        },
      ];
    }),
  );
}

describe('collection backups: stock settings and check-outs', () => {
  const app = useTestApp();
  let ada: Session;
  let bob: Session;
  let zip: Buffer;
  let entries: Map<string, Buffer>;
  let before: Awaited<ReturnType<typeof stockAndCheckouts>>;

  beforeAll(async () => {
    ada = await signUp(app.trove, { name: 'Ada' });
    bob = await signUpMember(app.trove, ada);
    const coffee = await makeEntity(app.trove, ada, { name: 'Coffee', quantity: 5 });
    const rice = await makeEntity(app.trove, ada, { name: 'Rice', quantity: 1 });
    const drill = await makeEntity(app.trove, ada, { name: 'Drill', quantity: 6 });
    await putStock(app.trove, ada, coffee.id, {
      minQuantity: 2,
      reorderQuantity: 6,
      expiresOn: '2031-05-06',
      notes: 'Arabica',
    });
    // At its minimum.
    await putStock(app.trove, ada, rice.id, { minQuantity: 1 });
    await checkOut(app.trove, ada, drill.id, {
      memberId: bob.id,
      quantity: 1,
      dueOn: FUTURE,
      notes: 'For the shelf',
    });
    const partly = await checkOut(app.trove, ada, drill.id, { borrower: 'Carol', quantity: 3 });
    await returnCheckout(app.trove, ada, partly, { quantity: 1 });
    const back = await checkOut(app.trove, ada, drill.id, { borrower: 'Dan', quantity: 1 });
    await returnCheckout(app.trove, ada, back);
    await settled(app.trove);
    before = await stockAndCheckouts(app.trove, ada);
    zip = (await exportZip(app.trove, ada)).zip;
    entries = await unzip(zip);
  });

  const alertsOf = (groupId: string) =>
    app.trove.query('SELECT entity_id FROM stock_alerts WHERE group_id = $1', [groupId]);

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('exports the settings without their alert bookkeeping, and the check-outs with the member name', () => {
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as {
      counts: Record<string, number>;
    };
    expect(manifest.counts).toMatchObject({ entity_stock: 2, checkouts: 3 });
    const stock = JSON.parse(entries.get('entity_stock.json')!.toString()) as object[];
    expect(stock).toContainEqual({
      entity_id: expect.any(String),
      min_quantity: 2,
      reorder_quantity: 6,
      expires_on: '2031-05-06',
      notes: 'Arabica',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const checkouts = JSON.parse(entries.get('checkouts.json')!.toString()) as object[];
    expect(checkouts).toContainEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      entity_id: expect.any(String),
      quantity: 1,
      returned_quantity: 0,
      member_id: bob.id,
      member_name: bob.name,
      borrower: null,
      due_on: FUTURE,
      notes: 'For the shelf',
      checked_out_by: ada.id,
      returned_at: null,
    });
  });

  it('restores them into another collection: users not in it become null, the member the borrower; no low-stock alert', async () => {
    const notify = vi.spyOn(app.trove.app.get(NotifiersService), 'notifyGroup');
    const heir = await signUp(app.trove, { name: 'Heir' });
    await restoreZip(app.trove, heir, zip);

    const after = await stockAndCheckouts(app.trove, heir);
    const expected = withoutOwnIds(before);
    const drill = expected.Drill.checkouts.map((checkout) => ({
      ...checkout,
      member: null,
      borrower: checkout.member ? checkout.member.name : checkout.borrower,
      checkedOutBy: null,
    }));
    expect(withoutOwnIds(after)).toEqual({
      ...expected,
      Drill: { ...expected.Drill, checkouts: drill },
    });
    // What was exported is what the test expects: Bob's check-out, Carol's partial one, Dan's.
    expect(
      drill.map(({ borrower, returnedQuantity, status }) => ({
        borrower,
        returnedQuantity,
        status,
      })),
    ).toEqual(
      expect.arrayContaining([
        { borrower: 'Carol', returnedQuantity: 1, status: 'open' },
        { borrower: 'Dan', returnedQuantity: 1, status: 'returned' },
        { borrower: bob.name, returnedQuantity: 0, status: 'open' },
      ]),
    );
    expect(after.Coffee.stock).toEqual({
      entityId: expect.any(String),
      minQuantity: 2,
      reorderQuantity: 6,
      expiresOn: '2031-05-06',
      notes: 'Arabica',
    });
    for (const { stock } of Object.values(after)) {
      const { entityId } = stock as { entityId: string };
      expect(
        Object.values(before).map((shown) => (shown.stock as { entityId: string }).entityId),
      ).not.toContain(entityId);
    }

    // Rice is low in the restored collection, already counted as alerted: no outbox row, and
    // the sweep that reconciles every flag finds nothing to alert either.
    const low = await as(app.trove, heir, 'get', '/api/v1/stock/low').expect(200);
    expect((low.body as { name: string }[]).map((item) => item.name)).toEqual(['Rice']);
    expect(await alertsOf(heir.groupId)).toEqual([]);
    expect(
      await app.trove.query(
        `SELECT s.low_alerted FROM entity_stock s JOIN entities e ON e.id = s.entity_id
          WHERE s.group_id = $1 ORDER BY e.name`,
        [heir.groupId],
      ),
    ).toEqual([{ low_alerted: false }, { low_alerted: true }]);
    await app.trove.app.get(StockAlertsService).sweep();
    await settled(app.trove);
    expect(notify.mock.calls.filter(([groupId]) => groupId === heir.groupId)).toEqual([]);
  });

  it('keeps the users who are members of the collection it restores into', async () => {
    const { zip: own } = await exportZip(app.trove, ada);
    await as(app.trove, ada, 'post', '/api/v1/actions/wipe-inventory')
      .send({ wipeTags: true, wipeLocations: true, wipeMaintenance: true })
      .expect(200);
    await restoreZip(app.trove, ada, own);
    expect(withoutOwnIds(await stockAndCheckouts(app.trove, ada))).toEqual(withoutOwnIds(before));
    expect(await alertsOf(ada.groupId)).toEqual([]);
  });

  it('restores an older zip that has neither table', async () => {
    const older: Record<string, Buffer> = {};
    for (const [name, content] of entries) {
      if (name === 'entity_stock.json' || name === 'checkouts.json') continue;
      older[name] = content;
    }
    const manifest = JSON.parse(entries.get('manifest.json')!.toString()) as {
      counts: Record<string, number>;
    };
    delete manifest.counts.entity_stock;
    delete manifest.counts.checkouts;
    older['manifest.json'] = Buffer.from(JSON.stringify(manifest));
    const heir = await signUp(app.trove, { name: 'Older heir' });
    await restoreZip(app.trove, heir, await zipOf(older));

    const after = await stockAndCheckouts(app.trove, heir);
    for (const name of NAMES) {
      expect(after[name], name).toEqual({
        stock: {
          entityId: expect.any(String),
          minQuantity: null,
          reorderQuantity: null,
          expiresOn: null,
          notes: '',
        },
        checkouts: [],
      });
    }
  });

  it('refuses stock settings without an entity id before queuing (400)', async () => {
    const heir = await signUp(app.trove);
    const manifest = entries.get('manifest.json')!;
    const response = await importZip(
      app.trove,
      heir,
      await zipOf({ 'manifest.json': manifest, 'entity_stock.json': '[{"min_quantity": 1}]' }),
    );
    expect([response.status, response.body]).toEqual([
      400,
      { error: 'entity_stock row 1 has no entity_id' },
    ]);
  });

  for (const [table, row] of [
    ['entity_stock', { entity_id: 'no-such-entity', min_quantity: 1 }],
    ['checkouts', { id: 'c1', entity_id: 'no-such-entity', quantity: 1 }],
  ] as const) {
    it(`fails the restore of ${table} of an entity the zip does not have, writing nothing`, async () => {
      const heir = await signUp(app.trove);
      const response = await importZip(
        app.trove,
        heir,
        await zipOf({
          'manifest.json': entries.get('manifest.json')!,
          [`${table}.json`]: JSON.stringify([row]),
        }),
      );
      expect(response.status, JSON.stringify(response.body)).toBe(202);
      const job = await waitForJob(app.trove, heir, (response.body as ExportBody).id);
      expect(job.status).toBe('failed');
      expect(job.error).toContain("the backup's rows cannot be restored: null value in column");
      expect(
        await app.trove.query(
          `SELECT (SELECT count(*)::int FROM entity_stock WHERE group_id = $1) AS stock,
                  (SELECT count(*)::int FROM checkouts WHERE group_id = $1) AS checkouts`,
          [heir.groupId],
        ),
      ).toEqual([{ stock: 0, checkouts: 0 }]);
    });
  }
});
