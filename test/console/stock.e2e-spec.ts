import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayIn } from '../../src/platform/calendar/calendar-day.js';
import type { EntityBody } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { makeEntity, putStock, useTestApp } from '../stock/stock-helpers.js';
import { doneOf, getPage, postForm, tableRows, textOf } from './console-helpers.js';

describe('the stock page (/console/stock)', () => {
  const app = useTestApp({ TROVE_REMINDERS_TIME_ZONE: 'UTC' });
  const soon = addDays(dayIn('UTC', new Date()), 5);
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let coffee: EntityBody;
  let tea: EntityBody;
  let milk: EntityBody;
  let theirs: EntityBody;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    const pantry = await makeEntity(app.trove, owner, { name: 'Pantry', location: true });
    coffee = await makeEntity(app.trove, owner, {
      name: 'Coffee',
      parentId: pantry.id,
      quantity: 5,
    });
    tea = await makeEntity(app.trove, owner, { name: 'Tea', parentId: pantry.id, quantity: 1 });
    milk = await makeEntity(app.trove, owner, { name: 'Milk', quantity: 2 });
    await makeEntity(app.trove, owner, { name: 'Flour', parentId: pantry.id, quantity: 10 });
    await putStock(app.trove, owner, coffee.id, { minQuantity: 2, reorderQuantity: 6 });
    await putStock(app.trove, owner, tea.id, { minQuantity: 3, expiresOn: '2001-01-01' });
    await putStock(app.trove, owner, milk.id, { expiresOn: soon, notes: 'semi-skimmed' });
    theirs = await makeEntity(app.trove, outsider, { name: 'Their coffee', quantity: 1 });
    await putStock(app.trove, outsider, theirs.id, { minQuantity: 9 });
  });

  /** What an adjustment may change: quantities, adjustments and history of the group. */
  const stored = async (groupId: string) => ({
    quantities: await app.trove.query(
      'SELECT id, quantity FROM entities WHERE group_id = $1 ORDER BY id',
      [groupId],
    ),
    adjustments: await app.trove.query(
      'SELECT * FROM stock_adjustments WHERE group_id = $1 ORDER BY id',
      [groupId],
    ),
    history: await app.trove.query(
      'SELECT count(*)::int AS n FROM entity_history WHERE group_id = $1',
      [groupId],
    ),
  });

  describe('success', () => {
    it('lists the stocked items with their levels and settings, by name', async () => {
      const response = await getPage(app.trove, owner, '/console/stock').expect(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(textOf(response.text)).toContain('Stock Stocked items At or below minimum Expiring');
      expect(tableRows(response.text)).toEqual([
        ['Coffee', 'Pantry', '5', '2', '6', '—', 'Adjust'],
        ['Milk', '—', '2', '—', '—', soon, 'Adjust'],
        ['Tea', 'Pantry', '1 low', '3', '—', '2001-01-01', 'Adjust'],
      ]);
      expect(response.text).toContain(`href="/console/items/${coffee.id}"`);
      expect(response.text).toContain(`href="/console/stock/items/${coffee.id}"`);
      expect(response.text).not.toContain('Flour');
    });

    it('lists what is at or below its minimum, with the shopping list as a CSV download', async () => {
      const response = await getPage(app.trove, owner, '/console/stock?list=low').expect(200);
      expect(tableRows(response.text)).toEqual([
        ['Tea', tea.assetId || '—', 'Pantry', '1', '3', '3', 'Adjust'],
      ]);
      expect(response.text).toContain('href="/console/stock/shopping-list.csv"');
      const csv = await getPage(app.trove, owner, '/console/stock/shopping-list.csv').expect(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toBe('attachment; filename="low-stock.csv"');
      expect(csv.text).toBe(
        `Name,Asset ID,Location,Quantity,Minimum,Reorder\nTea,${tea.assetId},Pantry,1,3,3\n`,
      );
    });

    it('lists what expires within the chosen days, and what has expired, marked', async () => {
      const week = await getPage(app.trove, owner, '/console/stock?list=expiring&within=7');
      expect(week.status).toBe(200);
      expect(week.text).toContain('name="within"');
      expect(week.text).toContain('value="7"');
      expect(tableRows(week.text)).toEqual([
        ['Tea', 'Pantry', '1', '2001-01-01 expired', expect.stringMatching(/^-\d+$/), 'Adjust'],
        ['Milk', '—', '2', soon, '5', 'Adjust'],
      ]);
      const today = await getPage(app.trove, owner, '/console/stock?list=expiring&within=0');
      expect(tableRows(today.text).map((row) => row[0])).toEqual(['Tea']);
      const byDefault = await getPage(app.trove, owner, '/console/stock?list=expiring');
      expect(byDefault.text).toContain('value="30"');
      expect(tableRows(byDefault.text).map((row) => row[0])).toEqual(['Tea', 'Milk']);
    });

    it('adjusts a level with a reason, kept in the history, down to the shopping list', async () => {
      const item = await getPage(app.trove, owner, `/console/stock/items/${coffee.id}`).expect(200);
      expect(textOf(item.text)).toContain(
        'Quantity 5 Minimum 2 Reorder quantity 6 Expires — Notes —',
      );
      expect(item.text).toContain(`action="/console/stock/items/${coffee.id}/adjustments"`);

      const response = await postForm(
        app.trove,
        owner,
        `/console/stock/items/${coffee.id}/adjustments`,
        { quantity: '', change: '-3', reason: 'used for the party' },
      ).expect(303);
      expect(response.headers.location).toMatch(
        new RegExp(`^/console/stock/items/${coffee.id}\\?done=`),
      );
      expect(doneOf(response.headers.location)).toBe(
        'Adjusted from 5 to 2: used for the party. At or below its minimum (2): on the shopping list.',
      );
      const after = await getPage(app.trove, owner, response.headers.location).expect(200);
      expect(textOf(after.text)).toContain('Quantity 2 at or below its minimum');

      const [entry] = await app.trove.query<{ operation: string; changes: unknown }>(
        `SELECT operation, changes FROM entity_history WHERE entity_id = $1
          ORDER BY changed_at DESC LIMIT 1`,
        [coffee.id],
      );
      const [adjustment] = await app.trove.query<{ id: string }>(
        'SELECT id FROM stock_adjustments WHERE entity_id = $1',
        [coffee.id],
      );
      expect(entry).toEqual({
        operation: 'POST /console/stock/items/{id}/adjustments',
        changes: {
          quantity: { before: 5, after: 2 },
          [`stock.adjustments.${adjustment.id}`]: {
            before: null,
            after: { quantityBefore: 5, quantityAfter: 2, reason: 'used for the party' },
          },
        },
      });

      const low = await getPage(app.trove, owner, '/console/stock?list=low').expect(200);
      expect(tableRows(low.text).map((row) => row.slice(0, 6))).toEqual([
        ['Coffee', coffee.assetId || '—', 'Pantry', '2', '2', '6'],
        ['Tea', tea.assetId || '—', 'Pantry', '1', '3', '3'],
      ]);
      const csv = await getPage(app.trove, owner, '/console/stock/shopping-list.csv').expect(200);
      expect(csv.text.split('\n')[1]).toBe(`Coffee,${coffee.assetId},Pantry,2,2,6`);

      const set = await postForm(
        app.trove,
        owner,
        `/console/stock/items/${coffee.id}/adjustments`,
        {
          quantity: '7',
          change: '',
          reason: 'restocked',
        },
      ).expect(303);
      expect(doneOf(set.headers.location)).toBe('Adjusted from 2 to 7: restocked.');
    });

    it('pages each list in 25s', async () => {
      const many = await signUp(app.trove, { name: 'Pat' });
      for (let index = 1; index <= 26; index += 1) {
        const name = `Item ${String(index).padStart(2, '0')}`;
        const entity = await makeEntity(app.trove, many, { name, quantity: 0 });
        await putStock(app.trove, many, entity.id, { minQuantity: 1, expiresOn: '2001-01-01' });
      }
      for (const list of ['stocked', 'low', 'expiring']) {
        const first = await getPage(app.trove, many, `/console/stock?list=${list}`).expect(200);
        expect([list, tableRows(first.text).length]).toEqual([list, 25]);
        expect(textOf(first.text)).toContain('Page 1 of 2 · 26 in all');
        expect(first.text).toContain('rel="next"');
        const second = await getPage(app.trove, many, `/console/stock?list=${list}&page=2`);
        expect([list, tableRows(second.text).map((row) => row[0])]).toEqual([list, ['Item 26']]);
      }
    });
  });

  describe('bad input', () => {
    it('shows what is wrong with an adjustment, and stores nothing', async () => {
      const before = await stored(owner.groupId);
      const cases: [Record<string, string>, string][] = [
        [{ quantity: '1', reason: '' }, 'reason: reason must be longer than or equal to 1'],
        [{ quantity: 'lots', reason: 'why' }, 'quantity must be a number'],
        [{ reason: 'why' }, 'quantity: give quantity or change'],
        [{ quantity: '1', change: '1', reason: 'why' }, 'change: give either quantity or change'],
        [{ change: '-100', reason: 'why' }, 'change: change would take the quantity below 0'],
        [{ change: '0', reason: 'why' }, 'change: change must not be 0'],
      ];
      for (const [form, problem] of cases) {
        const response = await postForm(
          app.trove,
          owner,
          `/console/stock/items/${tea.id}/adjustments`,
          form,
        );
        expect([form, response.status]).toEqual([form, 422]);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(textOf(response.text)).toContain('Check the form');
        expect(textOf(response.text)).toContain(problem);
      }
      expect(await stored(owner.groupId)).toEqual(before);
    });

    it('names a bad expiry window, and answers 400 and 404 for bad and unknown ids', async () => {
      for (const within of ['soon', '-1', '3651']) {
        const response = await getPage(
          app.trove,
          owner,
          `/console/stock?list=expiring&within=${within}`,
        );
        expect([within, response.status]).toEqual([within, 422]);
        expect(textOf(response.text)).toContain('within:');
      }
      await getPage(app.trove, owner, '/console/stock/items/tea').expect(400);
      const unknown = await getPage(
        app.trove,
        owner,
        '/console/stock/items/00000000-0000-4000-8000-000000000000',
      ).expect(404);
      expect(textOf(unknown.text)).toContain(
        'entity 00000000-0000-4000-8000-000000000000 not found',
      );
    });
  });

  describe('authentication and roles', () => {
    it('sends a signed-out browser to sign in and back, and refuses its form post', async () => {
      const page = await app.trove.http.get('/console/stock?list=low').expect(302);
      expect(page.headers.location).toBe('/sign-in?next=%2Fconsole%2Fstock%3Flist%3Dlow');
      const csv = await app.trove.http.get('/console/stock/shopping-list.csv').expect(302);
      expect(csv.headers.location).toBe('/sign-in?next=%2Fconsole%2Fstock%2Fshopping-list.csv');
      const before = await stored(owner.groupId);
      const post = await app.trove.http
        .post(`/console/stock/items/${tea.id}/adjustments`)
        .set('Origin', app.trove.baseUrl)
        .type('form')
        .send({ quantity: '9', reason: 'why' })
        .expect(401);
      expect(textOf(post.text)).toContain('Your session has ended.');
      expect(await stored(owner.groupId)).toEqual(before);
    });

    it('shows a viewer the lists and the CSV but no adjusting, and refuses a forged post', async () => {
      const stocked = await getPage(app.trove, viewer, '/console/stock').expect(200);
      expect(tableRows(stocked.text).map((row) => row.length)).toEqual([6, 6, 6]);
      expect(stocked.text).not.toContain('Adjust');
      const low = await getPage(app.trove, viewer, '/console/stock?list=low').expect(200);
      expect(low.text).toContain('href="/console/stock/shopping-list.csv"');
      await getPage(app.trove, viewer, '/console/stock/shopping-list.csv').expect(200);
      const item = await getPage(app.trove, viewer, `/console/stock/items/${tea.id}`).expect(200);
      expect(item.text).not.toContain('method="post" action="/console/stock');
      expect(item.text).not.toContain('name="reason"');

      const before = await stored(owner.groupId);
      const forged = await postForm(
        app.trove,
        viewer,
        `/console/stock/items/${tea.id}/adjustments`,
        {
          quantity: '9',
          reason: 'forged',
        },
      ).expect(403);
      expect(textOf(forged.text)).toContain('viewers of this collection can only read');
      expect(await stored(owner.groupId)).toEqual(before);
    });

    it('refuses a form posted from another site', async () => {
      const before = await stored(owner.groupId);
      const response = await postForm(
        app.trove,
        owner,
        `/console/stock/items/${tea.id}/adjustments`,
        { quantity: '9', reason: 'why' },
        'https://evil.example',
      ).expect(403);
      expect(textOf(response.text)).toContain('This form was sent from another site');
      expect(await stored(owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('shows and adjusts nothing of another group', async () => {
      await getPage(app.trove, owner, `/console/stock/items/${theirs.id}`).expect(404);
      const before = await stored(outsider.groupId);
      const adjust = await postForm(
        app.trove,
        owner,
        `/console/stock/items/${theirs.id}/adjustments`,
        { quantity: '0', reason: 'why' },
      ).expect(404);
      expect(textOf(adjust.text)).toContain(`entity ${theirs.id} not found`);
      expect(await stored(outsider.groupId)).toEqual(before);

      for (const list of ['stocked', 'low', 'expiring']) {
        const page = await getPage(app.trove, outsider, `/console/stock?list=${list}`).expect(200);
        const names = tableRows(page.text).map((row) => row[0]);
        expect([list, names]).toEqual([list, list === 'expiring' ? [] : ['Their coffee']]);
      }
      const csv = await getPage(app.trove, outsider, '/console/stock/shopping-list.csv');
      expect(csv.text).toBe(
        `Name,Asset ID,Location,Quantity,Minimum,Reorder\nTheir coffee,${theirs.assetId},,1,9,9\n`,
      );
    });
  });
});
