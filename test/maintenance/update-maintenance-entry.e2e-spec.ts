import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  COST_ERROR,
  createEntity,
  createEntry,
  dateError,
  ENTRY_KEYS,
  entryShape,
  expectUnauthenticated,
  FUTURE,
  listEntityEntries,
  NO_DATE_ERROR,
  PAST,
  storedEntries,
  UNKNOWN_ID,
  validation,
  VIEWER_ONLY_READS,
  withDetails,
  type EntryBody,
} from './maintenance-helpers.js';

describe('PUT /api/v1/maintenance/{id}', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let car: { id: string; name: string };

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    car = await createEntity(app.trove, owner, 'Car');
  });

  const update = (session: Session, id: string, body: unknown) =>
    as(app.trove, session, 'put', `/api/v1/maintenance/${id}`).send(body as object);
  const full = {
    name: 'Oil change',
    description: 'Synthetic',
    completedDate: PAST,
    scheduledDate: FUTURE,
    cost: '12.50',
  };

  describe('success', () => {
    it('replaces every field and answers 200 with the six string fields', async () => {
      const entry = await createEntry(app.trove, owner, car.id, {
        name: 'Oil',
        scheduledDate: FUTURE,
      });

      const response = await update(member, entry.id, full).expect(200);

      expect(response.body).toEqual({
        id: entry.id,
        name: 'Oil change',
        description: 'Synthetic',
        completedDate: PAST,
        scheduledDate: FUTURE,
        cost: '12.5',
      });
      expect(Object.keys(response.body).sort()).toEqual(ENTRY_KEYS);
      const [row] = await app.trove.query(
        `SELECT entity_id, name, description, date::text AS date,
                scheduled_date::text AS scheduled_date, cost::text AS cost,
                updated_at > created_at AS touched
           FROM maintenance_entries WHERE id = $1`,
        [entry.id],
      );
      expect(row).toEqual({
        entity_id: car.id,
        name: 'Oil change',
        description: 'Synthetic',
        date: PAST,
        scheduled_date: FUTURE,
        cost: '12.50',
        touched: true,
      });
      expect(await listEntityEntries(app.trove, owner, car.id, 'completed')).toContainEqual(
        withDetails(response.body as EntryBody, car),
      );
    });

    it('is a full replacement: omitted description, date and cost are reset', async () => {
      const entry = await createEntry(app.trove, owner, car.id, full);

      const response = await update(owner, entry.id, {
        name: 'Reset',
        completedDate: '03/04/2026',
      }).expect(200);

      expect(response.body).toEqual(
        entryShape({ id: entry.id, name: 'Reset', completedDate: '2026-03-04' }),
      );
      const [row] = await app.trove.query(
        `SELECT description, date::text AS date, scheduled_date::text AS scheduled_date,
                cost::text AS cost FROM maintenance_entries WHERE id = $1`,
        [entry.id],
      );
      expect(row).toEqual({ description: '', date: '2026-03-04', scheduled_date: null, cost: '0' });
    });

    it('normalises RFC 3339 dates, clears a date sent as "" and ignores undeclared keys', async () => {
      const entry = await createEntry(app.trove, owner, car.id, full);
      const boat = await createEntity(app.trove, owner, 'Boat');

      const response = await update(owner, entry.id, {
        ...full,
        completedDate: '',
        scheduledDate: '2027-01-02T23:59:59+09:00',
        cost: '0',
        id: UNKNOWN_ID,
        entityId: boat.id,
      }).expect(200);

      expect(response.body).toEqual({
        ...entryShape({ id: entry.id, name: 'Oil change', scheduledDate: '2027-01-02' }),
        description: 'Synthetic',
      });
      expect(await listEntityEntries(app.trove, owner, boat.id)).toEqual([]);
    });
  });

  describe('bad input', () => {
    it('answers 422 naming each bad field and changes nothing', async () => {
      const entry = await createEntry(app.trove, owner, car.id, full);
      const before = await storedEntries(app.trove, owner.groupId);

      const cases: [unknown, Record<string, string>][] = [
        [
          { scheduledDate: FUTURE },
          { name: 'name must be longer than or equal to 1 characters; name must be a string' },
        ],
        [{ ...full, name: '' }, { name: 'name must be longer than or equal to 1 characters' }],
        [
          { ...full, description: 'd'.repeat(2501) },
          { description: 'description must be shorter than or equal to 2500 characters' },
        ],
        [{ ...full, cost: 12.5 }, { cost: COST_ERROR }],
        [{ ...full, cost: '' }, { cost: COST_ERROR }],
        [{ ...full, cost: 'abc' }, { cost: COST_ERROR }],
        [{ ...full, cost: '-0' }, { cost: COST_ERROR }],
        [{ ...full, completedDate: '2026-13-01' }, { completedDate: dateError('completedDate') }],
        [{ ...full, scheduledDate: 'next week' }, { scheduledDate: dateError('scheduledDate') }],
        [{ name: 'No dates', description: 'x', cost: '1' }, { completedDate: NO_DATE_ERROR }],
        [{ ...full, completedDate: null, scheduledDate: '' }, { completedDate: NO_DATE_ERROR }],
      ];
      for (const [body, fields] of cases) {
        const response = await update(owner, entry.id, body);
        expect({ body, status: response.status, response: response.body }).toEqual({
          body,
          status: 422,
          response: validation(fields),
        });
      }
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 400 for an id that is not a UUID and 404 for an unknown id, changing nothing', async () => {
      const before = await storedEntries(app.trove, owner.groupId);

      const malformed = await update(owner, 'not-an-id', full);
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: id' });

      const unknown = await update(owner, UNKNOWN_ID, full);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `maintenance entry ${UNKNOWN_ID} not found` });

      // An entity id is not a maintenance entry id.
      const entityId = await update(owner, car.id, full);
      expect(entityId.status).toBe(404);
      expect(entityId.body).toEqual({ error: `maintenance entry ${car.id} not found` });

      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and changes nothing', async () => {
      const entry = await createEntry(app.trove, owner, car.id, full);
      const before = await storedEntries(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'put', `/api/v1/maintenance/${entry.id}`, {
        ...full,
        name: 'Hijacked',
      });
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer and changes nothing', async () => {
      const entry = await createEntry(app.trove, owner, car.id, full);
      const before = await storedEntries(app.trove, owner.groupId);

      const response = await update(viewer, entry.id, { ...full, name: 'By viewer' });

      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for an entry of another group and changes nothing in either group', async () => {
      const entry = await createEntry(app.trove, owner, car.id, full);
      const theirCar = await createEntity(app.trove, outsider, 'Their car');
      await createEntry(app.trove, outsider, theirCar.id, { name: 'Theirs', completedDate: PAST });
      const ours = await storedEntries(app.trove, owner.groupId);
      const theirs = await storedEntries(app.trove, outsider.groupId);

      const response = await update(outsider, entry.id, { ...full, name: 'Taken' });

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `maintenance entry ${entry.id} not found` });
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(ours);
      expect(await storedEntries(app.trove, outsider.groupId)).toEqual(theirs);
    });
  });
});
