import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  checkOut,
  createEntity,
  FUTURE,
  makeOverdue,
  storedCheckouts,
  type CheckoutBody,
} from '../checkouts/checkout-helpers.js';
import { doneOf, getPage, postForm, tableRows, textOf } from './console-helpers.js';

describe('the check-out desk (/console)', () => {
  const app = useTestApp();
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let drill: { id: string; assetId: string };
  let tent: { id: string };
  let theirs: { id: string };
  let lentTent: CheckoutBody;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    drill = await createEntity(app.trove, owner, { name: 'Cordless drill', quantity: 2 });
    tent = await createEntity(app.trove, owner, { name: 'Tent', quantity: 1 });
    await createEntity(app.trove, owner, { name: 'Drill bits' });
    theirs = await createEntity(app.trove, outsider, { name: 'Their drill' });
    lentTent = await checkOut(app.trove, owner, tent.id, { borrower: 'Grace', dueOn: FUTURE });
  });

  describe('success', () => {
    it('shows the find form and what is out, with the pages’ headers', async () => {
      const response = await getPage(app.trove, owner, '/console').expect(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['content-security-policy']).toContain("default-src 'none'");
      expect(response.text).toContain('<form method="get" action="/console"');
      expect(response.text).toContain('name="find"');
      expect(tableRows(response.text)).toEqual([
        ['Tent', 'Grace', '1', FUTURE, lentTent.checkedOutAt.slice(0, 10), 'open'],
      ]);
      expect(textOf(response.text)).toContain('Ada · Ada’s Home (owner)'.replace('’', "'"));
    });

    it('finds an item by asset id, by its label’s link, or by words', async () => {
      const byAsset = await getPage(app.trove, owner, `/console?find=${drill.assetId}`).expect(303);
      expect(byAsset.headers.location).toBe(`/console/items/${drill.id}`);
      const number = Number(drill.assetId.replace('-', ''));
      const link = `https://inventory.example/a/${encodeURIComponent(drill.assetId)}`;
      for (const find of [String(number), link, `http://old:7745/item/${drill.id}`]) {
        const response = await getPage(app.trove, owner, '/console').query({ find }).expect(303);
        expect([find, response.headers.location]).toEqual([find, `/console/items/${drill.id}`]);
      }
      const words = await getPage(app.trove, owner, '/console?find=drill').expect(200);
      expect(textOf(words.text)).toContain('Found');
      expect(words.text).toContain(`href="/console/items/${drill.id}"`);
      expect(words.text).not.toContain(theirs.id);
      const nothing = await getPage(app.trove, owner, '/console?find=zeppelin').expect(200);
      expect(textOf(nothing.text)).toContain('Nothing of the group matches “zeppelin”.');
    });

    it('lends an item to a member and takes it back with a note', async () => {
      const item = await getPage(app.trove, owner, `/console/items/${drill.id}`).expect(200);
      expect(textOf(item.text)).toContain('Quantity 2, of which 2 available');
      expect(item.text).toContain(`<option value="${member.id}">`);
      expect(item.text).toContain(`action="/console/items/${drill.id}/checkouts"`);

      const lent = await postForm(app.trove, owner, `/console/items/${drill.id}/checkouts`, {
        quantity: '1',
        memberId: member.id,
        borrower: '',
        dueOn: FUTURE,
        notes: 'for the shelves',
      }).expect(303);
      expect(lent.headers.location).toMatch(new RegExp(`^/console/items/${drill.id}\\?done=`));
      expect(doneOf(lent.headers.location)).toBe(`Checked out 1 to ${member.name}, due ${FUTURE}.`);
      const [stored] = await app.trove.query<{ id: string; member_id: string; notes: string }>(
        'SELECT id, member_id, notes FROM checkouts WHERE entity_id = $1',
        [drill.id],
      );
      expect(stored).toMatchObject({ member_id: member.id, notes: 'for the shelves' });

      const after = await getPage(app.trove, owner, lent.headers.location).expect(200);
      expect(textOf(after.text)).toContain(`Checked out 1 to ${member.name}, due ${FUTURE}.`);
      expect(textOf(after.text)).toContain('Quantity 2, of which 1 available');

      const back = await postForm(
        app.trove,
        owner,
        `/console/items/${drill.id}/checkouts/${stored.id}/return`,
        { quantity: '1', notes: 'chuck loose' },
      ).expect(303);
      expect(doneOf(back.headers.location)).toBe('Returned: all of it is back.');
      const [returned] = await app.trove.query<{ returned_at: Date | null; notes: string }>(
        'SELECT returned_at, notes FROM checkouts WHERE id = $1',
        [stored.id],
      );
      expect(returned.returned_at).not.toBeNull();
      expect(returned.notes).toMatch(/^for the shelves\nReturned \d{4}-\d{2}-\d{2}: chuck loose$/);
    });

    it('lists what is overdue and what is due within a week, sorted and paged', async () => {
      const soonDay = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      const ladder = await createEntity(app.trove, owner, { name: 'Ladder' });
      await checkOut(app.trove, owner, ladder.id, { borrower: 'Zoe', dueOn: soonDay });
      const saw = await createEntity(app.trove, owner, { name: 'Saw' });
      const late = await checkOut(app.trove, owner, saw.id, { borrower: 'Bob', dueOn: FUTURE });
      await makeOverdue(app.trove, late.id, '2001-01-01');

      const overdue = await getPage(app.trove, owner, '/console?list=overdue').expect(200);
      expect(tableRows(overdue.text).map((row) => [row[0], row[1], row[5]])).toEqual([
        ['Saw', 'Bob', 'overdue'],
      ]);
      const soon = await getPage(app.trove, owner, '/console?list=soon').expect(200);
      expect(tableRows(soon.text).map((row) => row[0])).toEqual(['Ladder']);
      const byItem = await getPage(app.trove, owner, '/console?list=out&sort=item&order=desc');
      expect(tableRows(byItem.text).map((row) => row[0])).toEqual(['Tent', 'Saw', 'Ladder']);
      expect(byItem.text).toContain('aria-sort="descending"');
      const byWho = await getPage(app.trove, owner, '/console?list=out&sort=who');
      expect(tableRows(byWho.text).map((row) => row[1])).toEqual(['Bob', 'Grace', 'Zoe']);
    });
  });

  describe('bad input', () => {
    it('shows what is wrong with a check-out, and stores nothing', async () => {
      const before = await storedCheckouts(app.trove, owner.groupId);
      const cases: [Record<string, string>, string][] = [
        [{ quantity: '5', borrower: 'Kim' }, 'quantity must not exceed what is available: 2'],
        [{ quantity: 'two', borrower: 'Kim' }, 'quantity must be an integer number'],
        [{ quantity: '1', borrower: 'Kim', dueOn: '2001-01-01' }, 'dueOn'],
        [{ quantity: '1' }, 'borrower'],
      ];
      for (const [form, problem] of cases) {
        const response = await postForm(
          app.trove,
          owner,
          `/console/items/${drill.id}/checkouts`,
          form,
        );
        expect([form, response.status]).toEqual([form, 422]);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(textOf(response.text)).toContain('Check the form');
        expect(textOf(response.text)).toContain(problem);
      }
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 400 for an id that is not a UUID, and 404 for an unknown entity', async () => {
      await getPage(app.trove, owner, '/console/items/drill').expect(400);
      const unknown = await getPage(
        app.trove,
        owner,
        '/console/items/00000000-0000-4000-8000-000000000000',
      ).expect(404);
      expect(textOf(unknown.text)).toContain(
        'entity 00000000-0000-4000-8000-000000000000 not found',
      );
    });
  });

  describe('authentication and roles', () => {
    it('sends a signed-out browser to sign in and back, and refuses its form post', async () => {
      const page = await app.trove.http.get('/console?list=overdue').expect(302);
      expect(page.headers.location).toBe('/sign-in?next=%2Fconsole%3Flist%3Doverdue');
      const post = await app.trove.http
        .post(`/console/items/${drill.id}/checkouts`)
        .set('Origin', app.trove.baseUrl)
        .type('form')
        .send({ quantity: '1', borrower: 'Kim' })
        .expect(401);
      expect(textOf(post.text)).toContain('Your session has ended.');
    });

    it('shows a viewer no control that changes anything, and refuses a forged post', async () => {
      const item = await getPage(app.trove, viewer, `/console/items/${tent.id}`).expect(200);
      expect(item.text).not.toContain('method="post" action="/console/items');
      expect(item.text).not.toContain('>Return<');
      const desk = await getPage(app.trove, viewer, '/console').expect(200);
      expect(desk.text).not.toContain('href="/console/bulk"');
      const before = await storedCheckouts(app.trove, owner.groupId);
      const forged = await postForm(app.trove, viewer, `/console/items/${drill.id}/checkouts`, {
        quantity: '1',
        borrower: 'Mallory',
      }).expect(403);
      expect(textOf(forged.text)).toContain('viewers of this collection can only read');
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });

    it('refuses a form posted from another site', async () => {
      const before = await storedCheckouts(app.trove, owner.groupId);
      const response = await postForm(
        app.trove,
        owner,
        `/console/items/${drill.id}/checkouts`,
        { quantity: '1', borrower: 'Mallory' },
        'https://evil.example',
      ).expect(403);
      expect(textOf(response.text)).toContain('This form was sent from another site');
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('shows and lends nothing of another group', async () => {
      await getPage(app.trove, owner, `/console/items/${theirs.id}`).expect(404);
      const lend = await postForm(app.trove, owner, `/console/items/${theirs.id}/checkouts`, {
        quantity: '1',
        borrower: 'Kim',
      }).expect(404);
      expect(textOf(lend.text)).toContain(`entity ${theirs.id} not found`);
      expect(await storedCheckouts(app.trove, outsider.groupId)).toEqual([]);
      const desk = await getPage(app.trove, outsider, '/console').expect(200);
      expect(desk.text).not.toContain('Tent');
    });
  });
});
