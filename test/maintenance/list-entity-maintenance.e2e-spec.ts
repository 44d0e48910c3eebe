import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createEntity,
  createEntry,
  DETAILS_KEYS,
  expectUnauthenticated,
  FUTURE,
  listEntityEntries,
  PAST,
  UNKNOWN_ID,
  withDetails,
  type EntryBody,
} from './maintenance-helpers.js';

describe('GET /api/v1/entities/{id}/maintenance', () => {
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let car: { id: string; name: string };
  /** Completed in the past, never scheduled. */
  let donePast: EntryBody;
  /** Scheduled, with a completion date in the future. */
  let doneFuture: EntryBody;
  /** Scheduled far ahead, not done. */
  let dueLater: EntryBody;
  /** Scheduled in the past, not done (overdue). */
  let overdue: EntryBody;
  /** Scheduled and completed, both in the past. */
  let doneOnTime: EntryBody;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    car = await createEntity(app.trove, owner, 'Car');
    donePast = await createEntry(app.trove, owner, car.id, {
      name: 'Tyres',
      completedDate: PAST,
      cost: '400',
    });
    doneFuture = await createEntry(app.trove, owner, car.id, {
      name: 'Inspection',
      completedDate: FUTURE,
      scheduledDate: '2500-01-01',
    });
    dueLater = await createEntry(app.trove, owner, car.id, {
      name: 'Timing belt',
      scheduledDate: '2600-06-06',
      description: 'at 120000 km',
      cost: '850.00',
    });
    overdue = await createEntry(app.trove, owner, car.id, {
      name: 'Wipers',
      scheduledDate: '2002-02-02',
    });
    doneOnTime = await createEntry(app.trove, owner, car.id, {
      name: 'Oil',
      scheduledDate: '2009-09-09',
      completedDate: '2010-10-10',
      cost: '59.90',
    });
    const bike = await createEntity(app.trove, owner, 'Bike');
    await createEntry(app.trove, owner, bike.id, { name: 'Chain', scheduledDate: FUTURE });
  });

  const list = (session: Session, entityId: string, query: Record<string, string> = {}) =>
    as(app.trove, session, 'get', `/api/v1/entities/${entityId}/maintenance`).query(query);

  describe('success', () => {
    it('lists every entry of the entity with itemName and itemID, by scheduled date then completion date, latest first', async () => {
      const response = await list(owner, car.id).expect(200);

      expect(response.body).toEqual(
        [dueLater, doneFuture, doneOnTime, overdue, donePast].map((entry) =>
          withDetails(entry, car),
        ),
      );
      for (const item of response.body as object[]) {
        expect(Object.keys(item).sort()).toEqual(DETAILS_KEYS);
      }
      expect(response.body[0]).toEqual({
        id: dueLater.id,
        name: 'Timing belt',
        description: 'at 120000 km',
        completedDate: '',
        scheduledDate: '2600-06-06',
        cost: '850',
        itemName: 'Car',
        itemID: car.id,
      });
      expect(await listEntityEntries(app.trove, owner, car.id, 'both')).toEqual(response.body);
      expect(await listEntityEntries(app.trove, owner, car.id, '')).toEqual(response.body);
    });

    it('status=scheduled: no completion date or one in the future, by scheduled date', async () => {
      expect(await listEntityEntries(app.trove, owner, car.id, 'scheduled')).toEqual(
        [overdue, doneFuture, dueLater].map((entry) => withDetails(entry, car)),
      );
    });

    it('status=completed: a completion date that is not in the future, latest first', async () => {
      expect(await listEntityEntries(app.trove, owner, car.id, 'completed')).toEqual(
        [doneOnTime, donePast].map((entry) => withDetails(entry, car)),
      );
    });

    it('answers [] for an entity without entries, and lets a viewer read', async () => {
      const empty = await createEntity(app.trove, owner, 'Empty shelf');
      expect(await listEntityEntries(app.trove, owner, empty.id)).toEqual([]);

      const response = await list(viewer, car.id, { status: 'completed' }).expect(200);
      expect(response.body).toEqual([withDetails(doneOnTime, car), withDetails(donePast, car)]);
    });
  });

  describe('bad input', () => {
    it('lists both for a status other than scheduled or completed, as Homebox’s web client sends', async () => {
      const both = [dueLater, doneFuture, doneOnTime, overdue, donePast].map((entry) =>
        withDetails(entry, car),
      );
      for (const status of ['undefined', 'all', 'SCHEDULED', 'done', ' both']) {
        const response = await list(owner, car.id, { status });
        expect({ status, code: response.status, body: response.body }).toEqual({
          status,
          code: 200,
          body: both,
        });
      }
      const repeated = await as(
        app.trove,
        owner,
        'get',
        `/api/v1/entities/${car.id}/maintenance?status=both&status=scheduled`,
      );
      expect(repeated.status).toBe(200);
      expect(repeated.body).toEqual(both);
    });

    it('answers 400 for an id that is not a UUID and 404 for an unknown entity', async () => {
      const malformed = await list(owner, 'not-an-id');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: id' });

      const unknown = await list(owner, UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `entity ${UNKNOWN_ID} not found` });
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', `/api/v1/entities/${car.id}/maintenance`);
    });
  });

  describe('another group', () => {
    it('answers 404 for an entity of another group, whatever the status', async () => {
      const queries: Record<string, string>[] = [
        {},
        { status: 'scheduled' },
        { status: 'completed' },
      ];
      for (const query of queries) {
        const response = await list(outsider, car.id, query);
        expect(response.status).toBe(404);
        expect(response.body).toEqual({ error: `entity ${car.id} not found` });
      }
    });

    it('never shows another group’s entries', async () => {
      const theirs = await createEntity(app.trove, outsider, 'Their car');
      const entry = await createEntry(app.trove, outsider, theirs.id, {
        name: 'Their oil',
        completedDate: PAST,
      });

      expect(await listEntityEntries(app.trove, outsider, theirs.id)).toEqual([
        withDetails(entry, theirs),
      ]);
      const ours = await listEntityEntries(app.trove, owner, car.id);
      expect(ours.map((item) => item.id)).not.toContain(entry.id);
      expect(ours).toHaveLength(5);
    });
  });
});
