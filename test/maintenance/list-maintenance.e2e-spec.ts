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
  listGroupEntries,
  PAST,
  withDetails,
  type EntryBody,
  type EntryWithDetailsBody,
} from './maintenance-helpers.js';

describe('GET /api/v1/maintenance', () => {
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let car: { id: string; name: string };
  let boat: { id: string; name: string };
  let done: EntryBody;
  let doneFuture: EntryBody;
  let dueSoon: EntryBody;
  let dueLater: EntryBody;
  let unscheduledDone: EntryBody;
  let their: { id: string; name: string };
  let theirs: EntryBody;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    car = await createEntity(app.trove, owner, 'Car');
    boat = await createEntity(app.trove, owner, 'Boat');
    done = await createEntry(app.trove, owner, car.id, {
      name: 'Oil',
      scheduledDate: '2009-09-09',
      completedDate: '2010-10-10',
      cost: '59.90',
    });
    doneFuture = await createEntry(app.trove, owner, boat.id, {
      name: 'Hull',
      scheduledDate: '2500-01-01',
      completedDate: FUTURE,
    });
    dueSoon = await createEntry(app.trove, owner, boat.id, {
      name: 'Antifouling',
      scheduledDate: '2002-02-02',
    });
    dueLater = await createEntry(app.trove, owner, car.id, {
      name: 'Belt',
      scheduledDate: '2600-06-06',
      description: 'at 120000 km',
    });
    unscheduledDone = await createEntry(app.trove, owner, car.id, {
      name: 'Tyres',
      completedDate: PAST,
      cost: '400.5',
    });
    // Same scheduled date as dueSoon: the name decides.
    await createEntry(app.trove, owner, car.id, { name: 'Battery', scheduledDate: '2002-02-02' });
    their = await createEntity(app.trove, outsider, 'Their car');
    theirs = await createEntry(app.trove, outsider, their.id, {
      name: 'Theirs',
      scheduledDate: PAST,
    });
  });

  const list = (session: Session, query: Record<string, string>) =>
    as(app.trove, session, 'get', '/api/v1/maintenance').query(query);
  const names = (items: EntryWithDetailsBody[]) => items.map((item) => item.name);

  describe('success', () => {
    it('status=both lists every entry of the group by scheduled date (unscheduled last), then name', async () => {
      const response = await list(owner, { status: 'both' }).expect(200);

      const items = response.body as EntryWithDetailsBody[];
      expect(names(items)).toEqual(['Antifouling', 'Battery', 'Oil', 'Hull', 'Belt', 'Tyres']);
      for (const item of items) expect(Object.keys(item).sort()).toEqual(DETAILS_KEYS);
      expect(items[0]).toEqual({
        id: dueSoon.id,
        name: 'Antifouling',
        description: '',
        completedDate: '',
        scheduledDate: '2002-02-02',
        cost: '0',
        itemName: 'Boat',
        itemID: boat.id,
      });
      expect(items.filter((item) => item.name !== 'Battery')).toEqual([
        withDetails(dueSoon, boat),
        withDetails(done, car),
        withDetails(doneFuture, boat),
        withDetails(dueLater, car),
        withDetails(unscheduledDone, car),
      ]);
    });

    it('status=scheduled lists the entries without a completion date', async () => {
      const items = await listGroupEntries(app.trove, owner, 'scheduled');
      expect(names(items)).toEqual(['Antifouling', 'Battery', 'Belt']);
      expect(items[2]).toEqual(withDetails(dueLater, car));
    });

    it('status=completed lists the entries with a completion date, even a future one', async () => {
      expect(await listGroupEntries(app.trove, owner, 'completed')).toEqual([
        withDetails(done, car),
        withDetails(doneFuture, boat),
        withDetails(unscheduledDone, car),
      ]);
    });

    it('lets a viewer read the same list', async () => {
      const response = await list(viewer, { status: 'both' }).expect(200);
      expect(response.body).toEqual(await listGroupEntries(app.trove, owner, 'both'));
    });
  });

  describe('bad input', () => {
    it('lists both for a missing, empty or unknown status, as Homebox’s web client sends', async () => {
      const both = await listGroupEntries(app.trove, owner, 'both');
      expect(both).toHaveLength(6);
      const queries: Record<string, string>[] = [
        {},
        { status: '' },
        { status: 'undefined' },
        { status: 'all' },
        { status: 'Both' },
        { status: 'SCHEDULED' },
      ];
      for (const query of queries) {
        const response = await list(owner, query);
        expect({ query, status: response.status, body: response.body }).toEqual({
          query,
          status: 200,
          body: both,
        });
      }
      for (const path of [
        '/api/v1/maintenance?status=both&status=both',
        '/api/v1/maintenance?status=scheduled&status=completed',
        '/api/v1/maintenance?status[]=scheduled',
      ]) {
        const repeated = await as(app.trove, owner, 'get', path);
        expect({ path, status: repeated.status, body: repeated.body }).toEqual({
          path,
          status: 200,
          body: both,
        });
      }
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', '/api/v1/maintenance?status=both');
    });
  });

  describe('another group', () => {
    it('shows each group only its own entries', async () => {
      const ours = await listGroupEntries(app.trove, owner, 'both');
      expect(ours.map((item) => item.id)).not.toContain(theirs.id);

      for (const status of ['both', 'scheduled']) {
        const response = await list(outsider, { status }).expect(200);
        expect(response.body).toEqual([withDetails(theirs, their)]);
      }
      expect(await listGroupEntries(app.trove, outsider, 'completed')).toEqual([]);
    });
  });
});
