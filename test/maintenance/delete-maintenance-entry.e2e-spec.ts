import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createEntity,
  createEntry,
  expectUnauthenticated,
  FUTURE,
  listEntityEntries,
  listGroupEntries,
  PAST,
  storedEntries,
  UNKNOWN_ID,
  VIEWER_ONLY_READS,
  withDetails,
} from './maintenance-helpers.js';

describe('DELETE /api/v1/maintenance/{id}', () => {
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

  const remove = (session: Session, id: string) =>
    as(app.trove, session, 'delete', `/api/v1/maintenance/${id}`);

  describe('success', () => {
    it('deletes the entry, answers 204 with no body and leaves the others', async () => {
      const car = await createEntity(app.trove, owner, 'Car');
      const gone = await createEntry(app.trove, owner, car.id, {
        name: 'Gone',
        scheduledDate: FUTURE,
      });
      const kept = await createEntry(app.trove, owner, car.id, {
        name: 'Kept',
        completedDate: PAST,
      });

      const response = await remove(member, gone.id).expect(204);

      expect(response.text).toBe('');
      expect(await listEntityEntries(app.trove, owner, car.id)).toEqual([withDetails(kept, car)]);
      expect(await listGroupEntries(app.trove, owner, 'both')).toEqual([withDetails(kept, car)]);
      expect(
        await app.trove.query('SELECT id FROM maintenance_entries WHERE id = $1', [gone.id]),
      ).toEqual([]);

      const again = await remove(owner, gone.id);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: `maintenance entry ${gone.id} not found` });
    });

    it('deleting the entity deletes its entries and no others', async () => {
      const boat = await createEntity(app.trove, owner, 'Boat');
      const bike = await createEntity(app.trove, owner, 'Bike');
      const boatEntries = [
        await createEntry(app.trove, owner, boat.id, { name: 'Hull', scheduledDate: FUTURE }),
        await createEntry(app.trove, owner, boat.id, { name: 'Sails', completedDate: PAST }),
      ];
      const bikeEntry = await createEntry(app.trove, owner, bike.id, {
        name: 'Chain',
        scheduledDate: FUTURE,
      });

      await as(app.trove, owner, 'delete', `/api/v1/entities/${boat.id}`).expect(204);

      expect(
        await app.trove.query('SELECT id FROM maintenance_entries WHERE id = ANY($1::uuid[])', [
          boatEntries.map((entry) => entry.id),
        ]),
      ).toEqual([]);
      expect(await listEntityEntries(app.trove, owner, bike.id)).toEqual([
        withDetails(bikeEntry, bike),
      ]);
      const all = await listGroupEntries(app.trove, owner, 'both');
      expect(all.map((item) => item.itemID)).not.toContain(boat.id);
      const hull = await remove(owner, boatEntries[0].id);
      expect(hull.status).toBe(404);
    });
  });

  describe('bad input', () => {
    it('answers 400 for an id that is not a UUID and 404 for an unknown id, deleting nothing', async () => {
      const before = await storedEntries(app.trove, owner.groupId);

      const malformed = await remove(owner, 'not-an-id');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: id' });

      const unknown = await remove(owner, UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `maintenance entry ${UNKNOWN_ID} not found` });

      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and deletes nothing', async () => {
      const safe = await createEntity(app.trove, owner, 'Safe');
      const entry = await createEntry(app.trove, owner, safe.id, {
        name: 'Lock',
        scheduledDate: FUTURE,
      });
      const before = await storedEntries(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'delete', `/api/v1/maintenance/${entry.id}`);
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer and deletes nothing', async () => {
      const tv = await createEntity(app.trove, owner, 'TV');
      const entry = await createEntry(app.trove, owner, tv.id, {
        name: 'Dust',
        scheduledDate: FUTURE,
      });
      const before = await storedEntries(app.trove, owner.groupId);

      const response = await remove(viewer, entry.id);

      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for an entry of another group and deletes nothing in either group', async () => {
      const piano = await createEntity(app.trove, owner, 'Piano');
      const entry = await createEntry(app.trove, owner, piano.id, {
        name: 'Tune',
        completedDate: PAST,
      });
      const theirCar = await createEntity(app.trove, outsider, 'Their car');
      await createEntry(app.trove, outsider, theirCar.id, { name: 'Theirs', completedDate: PAST });
      const ours = await storedEntries(app.trove, owner.groupId);
      const theirs = await storedEntries(app.trove, outsider.groupId);

      const response = await remove(outsider, entry.id);

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `maintenance entry ${entry.id} not found` });
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(ours);
      expect(await storedEntries(app.trove, outsider.groupId)).toEqual(theirs);
    });
  });
});
