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
  PAST,
  returnCheckout,
  steadyZone,
  storedCheckouts,
  UNKNOWN_ID,
  validation,
  VIEWER_ONLY_READS,
  type CheckoutBody,
} from './checkout-helpers.js';

const ONE_BORROWER = 'give exactly one of memberId and borrower';
const tooMany = (available: number, quantity: number, out: number) =>
  `quantity must not exceed what is available: ${available} of ${quantity} (${out} checked out)`;

describe('POST /api/v1/entities/{id}/checkouts', () => {
  const { zone, today } = steadyZone();
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;

  const app = useTestApp({ TROVE_REMINDERS_TIME_ZONE: zone });
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const create = (session: Session, entityId: string, body: unknown) =>
    as(app.trove, session, 'post', `/api/v1/entities/${entityId}/checkouts`).send(body as object);
  const entityQuantity = async (id: string) =>
    (
      (await as(app.trove, owner, 'get', `/api/v1/entities/${id}`).expect(200)).body as {
        quantity: number;
      }
    ).quantity;

  describe('success', () => {
    it('lends to a member and answers 201 with the check-out, leaving the entity’s quantity', async () => {
      const drill = await createEntity(app.trove, owner, { name: 'Drill', quantity: 3 });

      const response = await create(owner, drill.id, {
        quantity: 2,
        memberId: member.id,
        dueOn: FUTURE,
        notes: 'for the shelves',
      }).expect(201);

      expect(Object.keys(response.body).sort()).toEqual(CHECKOUT_KEYS);
      expect(response.body).toEqual({
        id: expect.any(String),
        entityId: drill.id,
        entityName: 'Drill',
        quantity: 2,
        returnedQuantity: 0,
        outstanding: 2,
        member: { id: member.id, name: member.name },
        borrower: null,
        dueOn: FUTURE,
        notes: 'for the shelves',
        status: 'open',
        checkedOutAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
        returnedAt: null,
        checkedOutBy: { id: owner.id, name: 'Ada' },
      });
      const checkout = response.body as CheckoutBody;
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual([
        {
          id: checkout.id,
          entity_id: drill.id,
          quantity: 2,
          returned_quantity: 0,
          member_id: member.id,
          borrower: null,
          due_on: FUTURE,
          notes: 'for the shelves',
          checked_out_by: owner.id,
          created_at: expect.any(String),
          updated_at: expect.any(String),
          returned_at: null,
        },
      ]);
      expect(await entityQuantity(drill.id)).toBe(3);
      expect(await entityCheckouts(app.trove, viewer, drill.id)).toEqual([checkout]);
    });

    it('lends one to a named outside borrower by default, trimmed, due today at the latest', async () => {
      const ladder = await createEntity(app.trove, member, 'Ladder');

      const response = await create(member, ladder.id, {
        borrower: '  Grace (next door)  ',
        dueOn: today,
      }).expect(201);

      expect(response.body).toEqual({
        id: expect.any(String),
        entityId: ladder.id,
        entityName: 'Ladder',
        quantity: 1,
        returnedQuantity: 0,
        outstanding: 1,
        member: null,
        borrower: 'Grace (next door)',
        dueOn: today,
        notes: '',
        status: 'open',
        checkedOutAt: expect.any(String),
        returnedAt: null,
        checkedOutBy: { id: member.id, name: member.name },
      });

      const nulls = await create(owner, (await createEntity(app.trove, owner, 'Saw')).id, {
        quantity: null,
        memberId: null,
        borrower: 'Bob',
        dueOn: null,
        notes: null,
      }).expect(201);
      expect(nulls.body).toMatchObject({ quantity: 1, borrower: 'Bob', dueOn: null, notes: '' });
    });

    it('lends to any member of the group, a viewer too', async () => {
      const tent = await createEntity(app.trove, owner, 'Tent');
      const checkout = await checkOut(app.trove, owner, tent.id, { memberId: viewer.id });
      expect(checkout.member).toEqual({ id: viewer.id, name: viewer.name });
    });

    it('allows a second check-out of the rest, then nothing more until some comes back', async () => {
      const chairs = await createEntity(app.trove, owner, { name: 'Chairs', quantity: 5 });

      const first = await checkOut(app.trove, owner, chairs.id, { quantity: 3, borrower: 'Bob' });
      const beyond = await create(owner, chairs.id, { quantity: 3, memberId: member.id });
      expect(beyond.status).toBe(422);
      expect(beyond.body).toEqual(validation({ quantity: tooMany(2, 5, 3) }));

      const rest = await checkOut(app.trove, owner, chairs.id, {
        quantity: 2,
        memberId: member.id,
      });
      expect(rest).toMatchObject({ quantity: 2, outstanding: 2, status: 'open' });
      const before = await storedCheckouts(app.trove, owner.groupId);
      const none = await create(owner, chairs.id, { borrower: 'Cy' });
      expect(none.status).toBe(422);
      expect(none.body).toEqual(validation({ quantity: tooMany(0, 5, 5) }));
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);

      await returnCheckout(app.trove, owner, first, { quantity: 1 });
      const again = await checkOut(app.trove, owner, chairs.id, { borrower: 'Cy' });
      expect(again.quantity).toBe(1);
      const full = await create(owner, chairs.id, { borrower: 'Dee' });
      expect(full.body).toEqual(validation({ quantity: tooMany(0, 5, 5) }));
      expect(await entityQuantity(chairs.id)).toBe(5);
    });

    it('lends nothing while the entity has less than is out, after its quantity was lowered', async () => {
      const jacks = await createEntity(app.trove, owner, { name: 'Jacks', quantity: 4 });
      await checkOut(app.trove, owner, jacks.id, { quantity: 3, borrower: 'Bob' });
      await as(app.trove, owner, 'patch', `/api/v1/entities/${jacks.id}`)
        .send({ quantity: 2 })
        .expect(200);

      const response = await create(owner, jacks.id, { borrower: 'Cy' });
      expect(response.status).toBe(422);
      expect(response.body).toEqual(validation({ quantity: tooMany(0, 2, 3) }));
    });

    it('answers a repeat with the same Idempotency-Key with the first check-out, lending once', async () => {
      const projector = await createEntity(app.trove, owner, { name: 'Projector', quantity: 2 });
      const send = () =>
        create(owner, projector.id, { borrower: 'Bob' }).set(
          'Idempotency-Key',
          `lend-${projector.id}`,
        );

      const first = await send().expect(201);
      const again = await send().expect(201);

      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await entityCheckouts(app.trove, owner, projector.id)).toEqual([first.body]);
    });

    it('never lends more than the entity has when check-outs run at once', async () => {
      const bikes = await createEntity(app.trove, owner, { name: 'Bikes', quantity: 3 });

      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          create(i % 2 === 0 ? owner : member, bikes.id, { borrower: `Rider ${i}` }),
        ),
      );

      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 201, 201, 422, 422, 422, 422, 422, 422, 422]);
      for (const response of responses.filter((r) => r.status === 422)) {
        expect(response.body).toEqual(validation({ quantity: tooMany(0, 3, 3) }));
      }
      const [{ out }] = await app.trove.query<{ out: number }>(
        'SELECT sum(quantity)::int AS out FROM checkouts WHERE entity_id = $1',
        [bikes.id],
      );
      expect(out).toBe(3);
      expect(await entityCheckouts(app.trove, owner, bikes.id)).toHaveLength(3);
    });
  });

  describe('bad input', () => {
    it('answers 422 naming each bad field and writes nothing', async () => {
      const lamp = await createEntity(app.trove, owner, { name: 'Lamp', quantity: 2 });
      const before = await storedCheckouts(app.trove, owner.groupId);
      const ok = { borrower: 'Bob' };

      const cases: [unknown, Record<string, string>][] = [
        [{}, { memberId: ONE_BORROWER }],
        [{ memberId: null, borrower: null }, { memberId: ONE_BORROWER }],
        [{ memberId: member.id, borrower: 'Bob' }, { memberId: ONE_BORROWER }],
        [{ ...ok, quantity: 0 }, { quantity: 'quantity must not be less than 1' }],
        [{ ...ok, quantity: -2 }, { quantity: 'quantity must not be less than 1' }],
        [{ ...ok, quantity: 1.5 }, { quantity: 'quantity must be an integer number' }],
        [
          { ...ok, quantity: '1' },
          {
            quantity:
              'quantity must not be greater than 2147483647; quantity must not be less than 1; quantity must be an integer number',
          },
        ],
        [{ ...ok, quantity: 3 }, { quantity: tooMany(2, 2, 0) }],
        [{ memberId: 'nobody' }, { memberId: 'memberId must be a UUID' }],
        [
          { memberId: UNKNOWN_ID },
          { memberId: `user ${UNKNOWN_ID} is not a member of this group` },
        ],
        [
          { memberId: outsider.id },
          { memberId: `user ${outsider.id} is not a member of this group` },
        ],
        [{ borrower: '' }, { borrower: 'borrower must be longer than or equal to 1 characters' }],
        [
          { borrower: '   ' },
          { borrower: 'borrower must be longer than or equal to 1 characters' },
        ],
        [
          { borrower: 'x'.repeat(256) },
          { borrower: 'borrower must be shorter than or equal to 255 characters' },
        ],
        [
          { borrower: 5 },
          {
            borrower:
              'borrower must be longer than or equal to 1 and shorter than or equal to 255 characters; borrower must be a string',
          },
        ],
        [{ ...ok, dueOn: 'tomorrow' }, { dueOn: 'dueOn must be a date as YYYY-MM-DD' }],
        [{ ...ok, dueOn: '2999-02-30' }, { dueOn: 'dueOn must be a date as YYYY-MM-DD' }],
        [{ ...ok, dueOn: '12/25/2999' }, { dueOn: 'dueOn must be a date as YYYY-MM-DD' }],
        [{ ...ok, dueOn: '2999-12-31T10:00:00Z' }, { dueOn: 'dueOn must be a date as YYYY-MM-DD' }],
        [{ ...ok, dueOn: 29991231 }, { dueOn: 'dueOn must be a date as YYYY-MM-DD' }],
        [{ ...ok, dueOn: PAST }, { dueOn: `dueOn must be today (${today}) or later` }],
        [
          { ...ok, notes: 'n'.repeat(1001) },
          { notes: 'notes must be shorter than or equal to 1000 characters' },
        ],
        [
          { ...ok, notes: 5 },
          {
            notes: 'notes must be shorter than or equal to 1000 characters; notes must be a string',
          },
        ],
        [
          { quantity: 0, borrower: '', dueOn: 'soon' },
          {
            quantity: 'quantity must not be less than 1',
            borrower: 'borrower must be longer than or equal to 1 characters',
            dueOn: 'dueOn must be a date as YYYY-MM-DD',
          },
        ],
      ];
      for (const [body, fields] of cases) {
        const response = await create(owner, lamp.id, body);
        expect({ body, status: response.status, response: response.body }).toEqual({
          body,
          status: 422,
          response: validation(fields),
        });
      }
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 400 for malformed JSON and an entity id that is not a UUID, 404 for an unknown entity', async () => {
      const before = await storedCheckouts(app.trove, owner.groupId);
      const lamp = await createEntity(app.trove, owner, 'Desk lamp');

      const malformed = await as(app.trove, owner, 'post', `/api/v1/entities/${lamp.id}/checkouts`)
        .set('Content-Type', 'application/json')
        .send('{"borrower": ');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: expect.stringMatching(/^malformed JSON body/) });

      const badId = await create(owner, 'not-an-id', { borrower: 'Bob' });
      expect(badId.status).toBe(400);
      expect(badId.body).toEqual({ error: 'invalid route key: id' });

      const unknown = await create(owner, UNKNOWN_ID, { borrower: 'Bob' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `entity ${UNKNOWN_ID} not found` });

      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and writes nothing', async () => {
      const safe = await createEntity(app.trove, owner, 'Safe');
      const before = await storedCheckouts(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'post', `/api/v1/entities/${safe.id}/checkouts`, {
        borrower: 'Bob',
      });
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer and writes nothing', async () => {
      const tv = await createEntity(app.trove, owner, 'TV');
      const before = await storedCheckouts(app.trove, owner.groupId);

      const response = await create(viewer, tv.id, { memberId: viewer.id });

      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for an entity of another group and writes nothing in either group', async () => {
      const piano = await createEntity(app.trove, owner, 'Piano');
      const ours = await storedCheckouts(app.trove, owner.groupId);
      const theirs = await storedCheckouts(app.trove, outsider.groupId);

      const response = await create(outsider, piano.id, { memberId: outsider.id });

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `entity ${piano.id} not found` });
      expect(await storedCheckouts(app.trove, owner.groupId)).toEqual(ours);
      expect(await storedCheckouts(app.trove, outsider.groupId)).toEqual(theirs);
    });
  });
});
