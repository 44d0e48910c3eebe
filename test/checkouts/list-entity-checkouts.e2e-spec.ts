import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  CHECKOUT_KEYS,
  checkOut,
  createEntity,
  expectUnauthenticated,
  FUTURE,
  makeOverdue,
  PAST,
  returnCheckout,
  UNKNOWN_ID,
  type CheckoutBody,
} from './checkout-helpers.js';

describe('GET /api/v1/entities/{id}/checkouts', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let drill: { id: string; name: string };
  let returned: CheckoutBody;
  let overdue: CheckoutBody;
  let open: CheckoutBody;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    drill = await createEntity(app.trove, owner, { name: 'Drill', quantity: 4 });
    const first = await checkOut(app.trove, owner, drill.id, { borrower: 'Grace', notes: 'old' });
    returned = await returnCheckout(app.trove, owner, first);
    overdue = await checkOut(app.trove, member, drill.id, {
      quantity: 2,
      memberId: member.id,
      dueOn: FUTURE,
    });
    await makeOverdue(app.trove, overdue.id);
    open = await checkOut(app.trove, owner, drill.id, { borrower: 'Bob', dueOn: FUTURE });
    // Another entity's check-out is not listed.
    const saw = await createEntity(app.trove, owner, 'Saw');
    await checkOut(app.trove, owner, saw.id, { borrower: 'Bob' });
  });

  const list = (session: Session, entityId: string) =>
    as(app.trove, session, 'get', `/api/v1/entities/${entityId}/checkouts`);

  describe('success', () => {
    it('lists every check-out of the entity, newest first, with its status as of today', async () => {
      const response = await list(owner, drill.id).expect(200);

      const items = response.body as CheckoutBody[];
      for (const item of items) expect(Object.keys(item).sort()).toEqual(CHECKOUT_KEYS);
      expect(items).toEqual([open, { ...overdue, dueOn: PAST, status: 'overdue' }, returned]);
      expect(items[2]).toMatchObject({
        borrower: 'Grace',
        notes: 'old',
        status: 'returned',
        returnedAt: expect.any(String),
      });
    });

    it('answers an empty list for an entity never lent', async () => {
      const vase = await createEntity(app.trove, owner, 'Vase');
      expect((await list(owner, vase.id).expect(200)).body).toEqual([]);
    });

    it('lets a viewer read the same list', async () => {
      const response = await list(viewer, drill.id).expect(200);
      expect(response.body).toEqual((await list(owner, drill.id).expect(200)).body);
    });
  });

  describe('bad input', () => {
    it('answers 400 for an id that is not a UUID and 404 for an unknown entity', async () => {
      const bad = await list(owner, 'nope');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'invalid route key: id' });
      const unknown = await list(owner, UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `entity ${UNKNOWN_ID} not found` });
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', `/api/v1/entities/${drill.id}/checkouts`);
    });
  });

  describe('another group', () => {
    it('answers 404 for an entity of another group', async () => {
      const response = await list(outsider, drill.id);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `entity ${drill.id} not found` });
    });
  });

  describe('the entity’s lifetime', () => {
    it('deletes an entity’s check-outs with the entity', async () => {
      const kayak = await createEntity(app.trove, owner, 'Kayak');
      await checkOut(app.trove, owner, kayak.id, { borrower: 'Bob' });
      await as(app.trove, owner, 'delete', `/api/v1/entities/${kayak.id}`).expect(204);
      const rows = await app.trove.query('SELECT id FROM checkouts WHERE entity_id = $1', [
        kayak.id,
      ]);
      expect(rows).toEqual([]);
    });
  });
});
