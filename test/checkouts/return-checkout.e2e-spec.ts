import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  CHECKOUT_KEYS,
  checkOut,
  createEntity,
  entityCheckouts,
  expectUnauthenticated,
  FUTURE,
  storedCheckouts,
  UNKNOWN_ID,
  validation,
  VIEWER_ONLY_READS,
  type CheckoutBody,
} from './checkout-helpers.js';

describe('POST /api/v1/entities/{id}/checkouts/{checkoutId}/return', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const giveBack = (
    session: Session,
    checkout: Pick<CheckoutBody, 'id' | 'entityId'>,
    body: unknown = {},
  ) =>
    as(
      app.trove,
      session,
      'post',
      `/api/v1/entities/${checkout.entityId}/checkouts/${checkout.id}/return`,
    ).send(body as object);
  const lend = async (name: string, quantity: number, lent: number) => {
    const entity = await createEntity(app.trove, owner, { name, quantity });
    return checkOut(app.trove, owner, entity.id, {
      quantity: lent,
      memberId: member.id,
      dueOn: FUTURE,
    });
  };

  describe('success', () => {
    it('takes back part, then the rest: returned, with returnedAt set, and available again', async () => {
      const checkout = await lend('Chairs', 4, 4);

      const partial = await giveBack(member, checkout, { quantity: 1 }).expect(200);
      expect(Object.keys(partial.body).sort()).toEqual(CHECKOUT_KEYS);
      expect(partial.body).toEqual({
        ...checkout,
        returnedQuantity: 1,
        outstanding: 3,
        status: 'open',
        returnedAt: null,
      });

      const second = await giveBack(owner, checkout, { quantity: 2 }).expect(200);
      expect(second.body).toMatchObject({ returnedQuantity: 3, outstanding: 1, status: 'open' });
      // One more can be lent now that three came back (one is still out).
      const other = await checkOut(app.trove, owner, checkout.entityId, {
        quantity: 3,
        borrower: 'Bob',
      });

      const rest = await giveBack(owner, checkout).expect(200);
      expect(rest.body).toEqual({
        ...checkout,
        returnedQuantity: 4,
        outstanding: 0,
        status: 'returned',
        returnedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      });
      const returnedAt = Date.parse((rest.body as CheckoutBody).returnedAt!);
      expect(returnedAt).toBeGreaterThanOrEqual(Date.parse(checkout.checkedOutAt));

      const [row] = await app.trove.query<{ returned_quantity: number; returned: boolean }>(
        'SELECT returned_quantity, returned_at IS NOT NULL AS returned FROM checkouts WHERE id = $1',
        [checkout.id],
      );
      expect(row).toEqual({ returned_quantity: 4, returned: true });
      expect(await entityCheckouts(app.trove, viewer, checkout.entityId)).toEqual([
        other,
        rest.body,
      ]);
    });

    it('takes back a partial return once when it is retried with the same Idempotency-Key', async () => {
      const checkout = await lend('Trestles', 4, 4);
      const first = await giveBack(member, checkout, { quantity: 1 })
        .set('Idempotency-Key', 'return-trestle-1')
        .expect(200);
      const retried = await giveBack(member, checkout, { quantity: 1 })
        .set('Idempotency-Key', 'return-trestle-1')
        .expect(200);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      expect(retried.body).toEqual(first.body);
      expect(first.body).toMatchObject({ returnedQuantity: 1, outstanding: 3 });
      const [row] = await app.trove.query<{ returned_quantity: number }>(
        'SELECT returned_quantity FROM checkouts WHERE id = $1',
        [checkout.id],
      );
      expect(row).toEqual({ returned_quantity: 1 });
    });

    it('takes back everything out when no quantity is given, an empty body or null alike', async () => {
      for (const body of [undefined, {}, { quantity: null }]) {
        const checkout = await lend('Cups', 6, 5);
        const response = await giveBack(owner, checkout, body).expect(200);
        expect(response.body).toMatchObject({
          quantity: 5,
          returnedQuantity: 5,
          outstanding: 0,
          status: 'returned',
          returnedAt: expect.any(String),
        });
      }
    });
  });

  describe('notes on a return', () => {
    it('adds each return’s note to the check-out’s notes, dated, and refuses notes that grow too long', async () => {
      const entity = await createEntity(app.trove, owner, { name: 'Projector', quantity: 2 });
      const checkout = await checkOut(app.trove, owner, entity.id, {
        quantity: 2,
        borrower: 'Lab',
        notes: 'for the talk',
      });
      const today = new Date().toISOString().slice(0, 10);
      const part = await giveBack(owner, checkout, {
        quantity: 1,
        notes: ' lens scratched ',
      }).expect(200);
      expect(part.body).toMatchObject({
        notes: `for the talk\nReturned ${today}: lens scratched`,
        outstanding: 1,
      });
      const full = await checkOut(app.trove, owner, entity.id, {
        borrower: 'Lab',
        notes: 'n'.repeat(990),
      });
      const before = await storedCheckouts(app.trove, owner.groupId);
      const refused = await giveBack(owner, full, { notes: 'a note too far' });
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 422,
        body: validation({
          notes: "the check-out's notes with this one would pass 1000 characters",
        }),
      });
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
      const plain = await giveBack(owner, full, {}).expect(200);
      expect(plain.body.notes).toBe('n'.repeat(990));
    });
  });

  describe('bad input', () => {
    it('answers 422 for a bad quantity or more than is out, and writes nothing', async () => {
      const checkout = await lend('Plates', 3, 3);
      await giveBack(owner, checkout, { quantity: 1 }).expect(200);
      const before = await storedCheckouts(app.trove, owner.groupId);

      const cases: [unknown, Record<string, string>][] = [
        [{ quantity: 3 }, { quantity: 'quantity must not exceed what is out: 2' }],
        [{ quantity: 0 }, { quantity: 'quantity must not be less than 1' }],
        [{ quantity: -1 }, { quantity: 'quantity must not be less than 1' }],
        [{ quantity: 1.5 }, { quantity: 'quantity must be an integer number' }],
        [
          { notes: 'x'.repeat(501) },
          { notes: 'notes must be shorter than or equal to 500 characters' },
        ],
        [
          { notes: 7 },
          {
            notes: 'notes must be shorter than or equal to 500 characters; notes must be a string',
          },
        ],
      ];
      for (const [body, fields] of cases) {
        const response = await giveBack(owner, checkout, body);
        expect({ body, status: response.status, response: response.body }).toEqual({
          body,
          status: 422,
          response: validation(fields),
        });
      }
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 409 for a check-out returned already, and writes nothing', async () => {
      const checkout = await lend('Ladder', 1, 1);
      await giveBack(owner, checkout).expect(200);
      const before = await storedCheckouts(app.trove, owner.groupId);

      for (const body of [{}, { quantity: 1 }]) {
        const response = await giveBack(owner, checkout, body);
        expect(response.status).toBe(409);
        expect(response.body).toEqual({ error: `checkout ${checkout.id} is already returned` });
      }
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 404 for a check-out of another entity or an unknown one, 400 for ids that are not UUIDs', async () => {
      const checkout = await lend('Tent', 2, 1);
      const other = await createEntity(app.trove, owner, 'Stove');
      const before = await storedCheckouts(app.trove, owner.groupId);

      const wrongEntity = await giveBack(owner, { id: checkout.id, entityId: other.id });
      expect(wrongEntity.status).toBe(404);
      expect(wrongEntity.body).toEqual({ error: `checkout ${checkout.id} not found` });

      const unknown = await giveBack(owner, { id: UNKNOWN_ID, entityId: checkout.entityId });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `checkout ${UNKNOWN_ID} not found` });

      const unknownEntity = await giveBack(owner, { id: checkout.id, entityId: UNKNOWN_ID });
      expect(unknownEntity.status).toBe(404);
      expect(unknownEntity.body).toEqual({ error: `entity ${UNKNOWN_ID} not found` });

      const badCheckout = await giveBack(owner, { id: 'nope', entityId: checkout.entityId });
      expect(badCheckout.status).toBe(400);
      expect(badCheckout.body).toEqual({ error: 'invalid route key: checkoutId' });
      const badEntity = await giveBack(owner, { id: checkout.id, entityId: 'nope' });
      expect(badEntity.status).toBe(400);
      expect(badEntity.body).toEqual({ error: 'invalid route key: id' });

      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and writes nothing', async () => {
      const checkout = await lend('Safe', 1, 1);
      const before = await storedCheckouts(app.trove, owner.groupId);
      await expectUnauthenticated(
        app.trove,
        'post',
        `/api/v1/entities/${checkout.entityId}/checkouts/${checkout.id}/return`,
        {},
      );
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer, even the borrower, and writes nothing', async () => {
      const tv = await createEntity(app.trove, owner, 'TV');
      const checkout = await checkOut(app.trove, owner, tv.id, { memberId: viewer.id });
      const before = await storedCheckouts(app.trove, owner.groupId);

      const response = await giveBack(viewer, checkout);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 to a user of another group, for their entity or ours, and writes nothing', async () => {
      const checkout = await lend('Piano', 1, 1);
      const theirEntity = await createEntity(app.trove, outsider, 'Their piano');
      const ours = await storedCheckouts(app.trove, owner.groupId);

      const direct = await giveBack(outsider, checkout);
      expect(direct.status).toBe(404);
      expect(direct.body).toEqual({ error: `entity ${checkout.entityId} not found` });

      const through = await giveBack(outsider, { id: checkout.id, entityId: theirEntity.id });
      expect(through.status).toBe(404);
      expect(through.body).toEqual({ error: `checkout ${checkout.id} not found` });

      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(ours);
      expect(await storedCheckouts(app.trove, outsider.groupId)).toEqual([]);
    });
  });
});
