import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  CHECKOUT_KEYS,
  checkOut,
  createEntity,
  expectUnauthenticated,
  makeOverdue,
  returnCheckout,
  validation,
  type CheckoutBody,
  type CheckoutPageBody,
} from './checkout-helpers.js';

describe('GET /api/v1/checkouts', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  /** By due day: overdue (2001), overdue (2002), open (2998), open (2999), open (none). */
  let lateDrill: CheckoutBody;
  let lateSaw: CheckoutBody;
  let soonLadder: CheckoutBody;
  let laterTent: CheckoutBody;
  let undatedChairs: CheckoutBody;
  let returned: CheckoutBody;
  let theirs: CheckoutBody;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    const entity = async (name: string) =>
      (await createEntity(app.trove, owner, { name, quantity: 5 })).id;

    undatedChairs = await checkOut(app.trove, owner, await entity('Chairs'), {
      quantity: 4,
      borrower: 'Bob',
    });
    laterTent = await checkOut(app.trove, owner, await entity('Tent'), {
      memberId: member.id,
      dueOn: '2999-01-01',
    });
    lateSaw = await checkOut(app.trove, owner, await entity('Saw'), {
      memberId: member.id,
      dueOn: '2999-06-06',
    });
    await makeOverdue(app.trove, lateSaw.id, '2002-02-02');
    soonLadder = await checkOut(app.trove, member, await entity('Ladder'), {
      borrower: 'Grace',
      dueOn: '2998-01-01',
    });
    lateDrill = await checkOut(app.trove, owner, await entity('Drill'), {
      quantity: 2,
      memberId: viewer.id,
      dueOn: '2999-06-06',
    });
    await makeOverdue(app.trove, lateDrill.id, '2001-01-01');
    const bike = await checkOut(app.trove, owner, await entity('Bike'), {
      memberId: member.id,
      dueOn: '2997-01-01',
    });
    returned = await returnCheckout(app.trove, owner, bike);
    theirs = await checkOut(
      app.trove,
      outsider,
      (await createEntity(app.trove, outsider, 'Their boat')).id,
      { borrower: 'Zed' },
    );
  });

  const list = (session: Session, query: Record<string, string | number> = {}) =>
    as(app.trove, session, 'get', '/api/v1/checkouts').query(query);
  const overdue = (checkout: CheckoutBody, dueOn: string): CheckoutBody => ({
    ...checkout,
    dueOn,
    status: 'overdue',
  });

  describe('success', () => {
    it('lists every check-out of the group by due day (none last), paged with 50 a page', async () => {
      const response = await list(owner).expect(200);

      expect(Object.keys(response.body).sort()).toEqual(['items', 'page', 'pageSize', 'total']);
      const page = response.body as CheckoutPageBody;
      for (const item of page.items) expect(Object.keys(item).sort()).toEqual(CHECKOUT_KEYS);
      expect(page).toEqual({
        page: 1,
        pageSize: 50,
        total: 6,
        items: [
          overdue(lateDrill, '2001-01-01'),
          overdue(lateSaw, '2002-02-02'),
          returned,
          soonLadder,
          laterTent,
          undatedChairs,
        ],
      });
      expect(page.items[0]).toMatchObject({
        entityName: 'Drill',
        member: { id: viewer.id, name: viewer.name },
        outstanding: 2,
      });
    });

    it('filters by status: open, overdue or returned', async () => {
      const ids = async (status: string) =>
        ((await list(owner, { status }).expect(200)).body as CheckoutPageBody).items.map(
          (item) => item.id,
        );
      expect(await ids('overdue')).toEqual([lateDrill.id, lateSaw.id]);
      expect(await ids('open')).toEqual([soonLadder.id, laterTent.id, undatedChairs.id]);
      expect(await ids('returned')).toEqual([returned.id]);
      const overdueOnly = (await list(owner, { status: 'overdue' }).expect(200))
        .body as CheckoutPageBody;
      expect(overdueOnly.total).toBe(2);
    });

    it('filters by member, with or without a status', async () => {
      const response = await list(owner, { memberId: member.id }).expect(200);
      expect(response.body).toEqual({
        page: 1,
        pageSize: 50,
        total: 3,
        items: [overdue(lateSaw, '2002-02-02'), returned, laterTent],
      });
      const open = await list(owner, { memberId: member.id, status: 'open' }).expect(200);
      expect((open.body as CheckoutPageBody).items).toEqual([laterTent]);
      const nobody = await list(owner, { memberId: outsider.id }).expect(200);
      expect(nobody.body).toEqual({ page: 1, pageSize: 50, total: 0, items: [] });
    });

    it('pages with page and pageSize', async () => {
      const second = await list(owner, { page: 2, pageSize: 4 }).expect(200);
      expect(second.body).toEqual({
        page: 2,
        pageSize: 4,
        total: 6,
        items: [laterTent, undatedChairs],
      });
      const first = await list(owner, { page: 1, pageSize: 2, status: 'open' }).expect(200);
      expect(first.body).toEqual({
        page: 1,
        pageSize: 2,
        total: 3,
        items: [soonLadder, laterTent],
      });
      const beyond = await list(owner, { page: 9, pageSize: 4 }).expect(200);
      expect(beyond.body).toEqual({ page: 9, pageSize: 4, total: 6, items: [] });
    });

    it('lists what is out (open or overdue), and what is due within some days', async () => {
      const out = (await list(owner, { status: 'out' }).expect(200)).body as CheckoutPageBody;
      expect(out.items.map((item) => item.id)).toEqual([
        lateDrill.id,
        lateSaw.id,
        soonLadder.id,
        laterTent.id,
        undatedChairs.id,
      ]);
      const today = new Date().toISOString().slice(0, 10);
      const inDays = (days: number) =>
        new Date(Date.parse(today) + days * 86_400_000).toISOString().slice(0, 10);
      const soon = await checkOut(
        app.trove,
        owner,
        (await createEntity(app.trove, owner, { name: 'Soon', quantity: 3 })).id,
        { borrower: 'Kim', dueOn: inDays(3) },
      );
      const due = async (dueWithin: number) =>
        ((await list(owner, { dueWithin }).expect(200)).body as CheckoutPageBody).items.map(
          (item) => item.id,
        );
      expect(await due(7)).toEqual([soon.id]);
      expect(await due(2)).toEqual([]);
      await returnCheckout(app.trove, owner, soon);
      expect(await due(7)).toEqual([]);
    });

    it('sorts by item, borrower or check-out time, either way', async () => {
      const names = async (sort: string, order: string) =>
        (
          (await list(owner, { status: 'out', sort, order }).expect(200)).body as CheckoutPageBody
        ).items.map((item) => item.entityName);
      expect(await names('item', 'asc')).toEqual(['Chairs', 'Drill', 'Ladder', 'Saw', 'Tent']);
      expect(await names('item', 'desc')).toEqual(['Tent', 'Saw', 'Ladder', 'Drill', 'Chairs']);
      // Bob, Grace (borrowers); the member and the viewer by their names.
      const who = (
        (await list(owner, { status: 'out', sort: 'who' }).expect(200)).body as CheckoutPageBody
      ).items.map((item) => item.member?.name ?? item.borrower ?? '');
      expect(who).toEqual([...who].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(await names('checkedOut', 'desc')).toEqual([
        'Drill',
        'Ladder',
        'Saw',
        'Tent',
        'Chairs',
      ]);
    });

    it('lets a viewer read the same list', async () => {
      const response = await list(viewer, { status: 'overdue' }).expect(200);
      expect(response.body).toEqual((await list(owner, { status: 'overdue' }).expect(200)).body);
    });
  });

  describe('bad input', () => {
    it('answers 422 for an unknown status, a member id that is not a UUID or a bad page', async () => {
      const statusError =
        'status must be one of the following values: open, overdue, returned, out';
      const cases: [string, Record<string, string>][] = [
        ['status=late', { status: statusError }],
        ['status=', { status: statusError }],
        ['status=OPEN', { status: statusError }],
        ['status=open&status=overdue', { status: statusError }],
        ['memberId=ada', { memberId: 'memberId must be a UUID' }],
        ['page=0', { page: 'page must not be less than 1' }],
        ['page=x', { page: 'page must not be less than 1; page must be an integer number' }],
        ['pageSize=0', { pageSize: 'pageSize must not be less than 1' }],
        ['pageSize=101', { pageSize: 'pageSize must not be greater than 100' }],
        ['dueWithin=-1', { dueWithin: 'dueWithin must not be less than 0' }],
        ['dueWithin=3651', { dueWithin: 'dueWithin must not be greater than 3650' }],
        [
          'sort=name',
          { sort: 'sort must be one of the following values: due, checkedOut, item, who' },
        ],
        ['order=up', { order: 'order must be one of the following values: asc, desc' }],
      ];
      for (const [query, fields] of cases) {
        const response = await as(app.trove, owner, 'get', `/api/v1/checkouts?${query}`);
        expect({ query, status: response.status, body: response.body }).toEqual({
          query,
          status: 422,
          body: validation(fields),
        });
      }
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', '/api/v1/checkouts?status=open');
    });
  });

  describe('another group', () => {
    it('shows each group only its own check-outs', async () => {
      const response = await list(outsider).expect(200);
      expect(response.body).toEqual({ page: 1, pageSize: 50, total: 1, items: [theirs] });
      const ours = (await list(owner).expect(200)).body as CheckoutPageBody;
      expect(ours.items.map((item) => item.id)).not.toContain(theirs.id);
    });
  });

  describe('members who leave', () => {
    it('keeps what a member removed from the group has out, still named, and lends them no more', async () => {
      const leaver = await signUpMember(app.trove, owner, 'user');
      const canoe = await createEntity(app.trove, owner, { name: 'Canoe', quantity: 2 });
      const checkout = await checkOut(app.trove, owner, canoe.id, { memberId: leaver.id });
      await as(app.trove, owner, 'delete', `/api/v1/groups/members/${leaver.id}`).expect(204);

      const theirs = await list(owner, { memberId: leaver.id }).expect(200);
      expect((theirs.body as CheckoutPageBody).items).toEqual([checkout]);
      const again = await as(
        app.trove,
        owner,
        'post',
        `/api/v1/entities/${canoe.id}/checkouts`,
      ).send({ memberId: leaver.id });
      expect(again.status).toBe(422);
      expect(again.body).toEqual(
        validation({ memberId: `user ${leaver.id} is not a member of this group` }),
      );
    });

    it('keeps a deleted member’s open check-outs, with no member named', async () => {
      const leaver = await signUpMember(app.trove, owner, 'user');
      const kayak = await createEntity(app.trove, owner, 'Kayak');
      const checkout = await checkOut(app.trove, owner, kayak.id, { memberId: leaver.id });
      await as(app.trove, leaver, 'delete', '/api/v1/users/self').expect(204);

      const after = await as(app.trove, owner, 'get', `/api/v1/entities/${kayak.id}/checkouts`);
      expect(after.body).toEqual([{ ...checkout, member: null }]);
      // It is still out: nothing of the kayak is left to lend.
      const again = await as(
        app.trove,
        owner,
        'post',
        `/api/v1/entities/${kayak.id}/checkouts`,
      ).send({ borrower: 'Bob' });
      expect(again.status).toBe(422);
      expect(again.body).toEqual(
        validation({
          quantity: 'quantity must not exceed what is available: 0 of 1 (1 checked out)',
        }),
      );
    });
  });
});
