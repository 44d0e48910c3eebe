import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  COST_ERROR,
  createEntity,
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

describe('POST /api/v1/entities/{id}/maintenance', () => {
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

  const create = (session: Session, entityId: string, body: unknown) =>
    as(app.trove, session, 'post', `/api/v1/entities/${entityId}/maintenance`).send(body as object);

  describe('success', () => {
    it('stores every field and answers 201 with the six string fields', async () => {
      const car = await createEntity(app.trove, owner, 'Car');

      const response = await create(owner, car.id, {
        name: 'Oil change',
        description: 'Synthetic 5W-30',
        completedDate: PAST,
        scheduledDate: FUTURE,
        cost: '12.50',
      }).expect(201);

      expect(response.body).toEqual({
        id: expect.any(String),
        name: 'Oil change',
        description: 'Synthetic 5W-30',
        completedDate: PAST,
        scheduledDate: FUTURE,
        cost: '12.5',
      });
      expect(Object.keys(response.body).sort()).toEqual(ENTRY_KEYS);
      const entry = response.body as EntryBody;
      expect(await storedEntries(app.trove, owner.groupId)).toEqual([
        {
          id: entry.id,
          entity_id: car.id,
          name: 'Oil change',
          description: 'Synthetic 5W-30',
          date: PAST,
          scheduled_date: FUTURE,
          cost: '12.50',
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ]);
      expect(await listEntityEntries(app.trove, owner, car.id)).toEqual([withDetails(entry, car)]);
    });

    it('defaults an omitted description to "", omitted dates to "" and an omitted or null cost to "0"', async () => {
      const bike = await createEntity(app.trove, member, 'Bike');

      const scheduled = await create(member, bike.id, {
        name: 'Chain',
        scheduledDate: FUTURE,
      }).expect(201);
      expect(scheduled.body).toEqual(entryShape({ name: 'Chain', scheduledDate: FUTURE }));

      const completed = await create(member, bike.id, {
        name: 'Brakes',
        description: null,
        completedDate: PAST,
        scheduledDate: null,
        cost: null,
      }).expect(201);
      expect(completed.body).toEqual(entryShape({ name: 'Brakes', completedDate: PAST }));

      const rows = await app.trove.query<{ name: string; cost: string; date: string | null }>(
        `SELECT name, cost::text AS cost, date::text AS date FROM maintenance_entries
          WHERE entity_id = $1 ORDER BY name`,
        [bike.id],
      );
      expect(rows).toEqual([
        { name: 'Brakes', cost: '0', date: PAST },
        { name: 'Chain', cost: '0', date: null },
      ]);
    });

    it('normalises RFC 3339 and MM/DD/YYYY dates to YYYY-MM-DD and "" to no date', async () => {
      const boiler = await createEntity(app.trove, owner, 'Boiler');

      const rfc = await create(owner, boiler.id, {
        name: 'Service',
        completedDate: '2026-03-04T23:30:00-05:00',
        scheduledDate: '12/25/2026',
      }).expect(201);
      expect(rfc.body).toEqual(
        entryShape({ name: 'Service', completedDate: '2026-03-04', scheduledDate: '2026-12-25' }),
      );

      const mixed = await create(owner, boiler.id, {
        name: 'Inspection',
        completedDate: '',
        scheduledDate: '2027-01-02T08:00:00Z',
      }).expect(201);
      expect(mixed.body).toEqual(entryShape({ name: 'Inspection', scheduledDate: '2027-01-02' }));

      const rows = await app.trove.query(
        `SELECT name, date::text AS date, scheduled_date::text AS scheduled_date
           FROM maintenance_entries WHERE entity_id = $1 ORDER BY name`,
        [boiler.id],
      );
      expect(rows).toEqual([
        { name: 'Inspection', date: null, scheduled_date: '2027-01-02' },
        { name: 'Service', date: '2026-03-04', scheduled_date: '2026-12-25' },
      ]);
    });

    it('writes costs as decimals without trailing zeros', async () => {
      const pump = await createEntity(app.trove, owner, 'Pump');
      const cases: [string, string][] = [
        ['0', '0'],
        ['0.00', '0'],
        ['7', '7'],
        ['0.5', '0.5'],
        ['100.1000', '100.1'],
        ['0012.3400', '12.34'],
        ['1.2345', '1.2345'],
        ['999999999999.99', '999999999999.99'],
      ];
      for (const [cost, written] of cases) {
        const response = await create(owner, pump.id, {
          name: `Cost ${cost}`,
          scheduledDate: FUTURE,
          cost,
        });
        expect({ cost, status: response.status, body: response.body }).toEqual({
          cost,
          status: 201,
          body: entryShape({ name: `Cost ${cost}`, scheduledDate: FUTURE, cost: written }),
        });
      }
    });

    it('trims the name and ignores undeclared keys', async () => {
      const fridge = await createEntity(app.trove, owner, 'Fridge');
      const other = await createEntity(app.trove, owner, 'Other');

      const response = await create(owner, fridge.id, {
        name: '  Defrost  ',
        scheduledDate: FUTURE,
        id: UNKNOWN_ID,
        entityId: other.id,
        itemID: other.id,
      }).expect(201);

      expect(response.body).toEqual(entryShape({ name: 'Defrost', scheduledDate: FUTURE }));
      expect((response.body as EntryBody).id).not.toBe(UNKNOWN_ID);
      expect(await listEntityEntries(app.trove, owner, other.id)).toEqual([]);
      expect(await listEntityEntries(app.trove, owner, fridge.id)).toEqual([
        withDetails(response.body as EntryBody, fridge),
      ]);
    });
  });

  describe('bad input', () => {
    it('answers 422 naming each bad field and writes nothing', async () => {
      const lamp = await createEntity(app.trove, owner, 'Lamp');
      const before = await storedEntries(app.trove, owner.groupId);
      const ok = { name: 'Bulb', scheduledDate: FUTURE };

      const cases: [unknown, Record<string, string>][] = [
        [{}, { name: 'name must be longer than or equal to 1 characters; name must be a string' }],
        [
          { scheduledDate: FUTURE },
          { name: 'name must be longer than or equal to 1 characters; name must be a string' },
        ],
        [
          { ...ok, name: null },
          { name: 'name must be longer than or equal to 1 characters; name must be a string' },
        ],
        [{ ...ok, name: '' }, { name: 'name must be longer than or equal to 1 characters' }],
        [{ ...ok, name: '   ' }, { name: 'name must be longer than or equal to 1 characters' }],
        [
          { ...ok, name: 'x'.repeat(256) },
          { name: 'name must be shorter than or equal to 255 characters' },
        ],
        [
          { ...ok, description: 'd'.repeat(2501) },
          { description: 'description must be shorter than or equal to 2500 characters' },
        ],
        [
          { ...ok, description: 5 },
          {
            description:
              'description must be shorter than or equal to 2500 characters; description must be a string',
          },
        ],
        [{ ...ok, cost: 12.5 }, { cost: COST_ERROR }],
        [{ ...ok, cost: 0 }, { cost: COST_ERROR }],
        [{ ...ok, cost: '' }, { cost: COST_ERROR }],
        [{ ...ok, cost: 'abc' }, { cost: COST_ERROR }],
        [{ ...ok, cost: '-1' }, { cost: COST_ERROR }],
        [{ ...ok, cost: '-0' }, { cost: COST_ERROR }],
        [{ ...ok, cost: '1.23456' }, { cost: COST_ERROR }],
        [{ ...ok, cost: '1e3' }, { cost: COST_ERROR }],
        [{ ...ok, cost: ' 1' }, { cost: COST_ERROR }],
        [{ ...ok, cost: '1,50' }, { cost: COST_ERROR }],
        [{ ...ok, cost: '1234567890123' }, { cost: COST_ERROR }],
        [{ ...ok, completedDate: 'yesterday' }, { completedDate: dateError('completedDate') }],
        [{ ...ok, completedDate: '2026-02-30' }, { completedDate: dateError('completedDate') }],
        [{ name: 'Bulb', scheduledDate: 20260101 }, { scheduledDate: dateError('scheduledDate') }],
        [
          { name: 'Bulb', scheduledDate: '13/01/2026' },
          { scheduledDate: dateError('scheduledDate') },
        ],
        [
          { name: '', cost: 'abc', completedDate: 'soon' },
          {
            name: 'name must be longer than or equal to 1 characters',
            cost: COST_ERROR,
            completedDate: dateError('completedDate'),
          },
        ],
        [{ name: 'Bulb' }, { completedDate: NO_DATE_ERROR }],
        [
          { name: 'Bulb', completedDate: '', scheduledDate: null },
          { completedDate: NO_DATE_ERROR },
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
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 400 for malformed JSON and for an entity id that is not a UUID', async () => {
      const lamp = await createEntity(app.trove, owner, 'Desk lamp');
      const before = await storedEntries(app.trove, owner.groupId);

      const malformed = await as(
        app.trove,
        owner,
        'post',
        `/api/v1/entities/${lamp.id}/maintenance`,
      )
        .set('Content-Type', 'application/json')
        .send('{"name": ');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: expect.stringMatching(/^malformed JSON body/) });

      const badId = await create(owner, 'not-an-id', { name: 'X', scheduledDate: FUTURE });
      expect(badId.status).toBe(400);
      expect(badId.body).toEqual({ error: 'invalid route key: id' });

      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 404 for an unknown entity and writes nothing', async () => {
      const before = await storedEntries(app.trove, owner.groupId);

      const response = await create(owner, UNKNOWN_ID, { name: 'X', scheduledDate: FUTURE });

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `entity ${UNKNOWN_ID} not found` });
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token, and writes nothing', async () => {
      const safe = await createEntity(app.trove, owner, 'Safe');
      const before = await storedEntries(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'post', `/api/v1/entities/${safe.id}/maintenance`, {
        name: 'Crack',
        scheduledDate: FUTURE,
      });
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('roles', () => {
    it('answers 403 to a viewer and writes nothing', async () => {
      const tv = await createEntity(app.trove, owner, 'TV');
      const before = await storedEntries(app.trove, owner.groupId);

      const response = await create(viewer, tv.id, { name: 'Dust', scheduledDate: FUTURE });

      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for an entity of another group and writes nothing in either group', async () => {
      const piano = await createEntity(app.trove, owner, 'Piano');
      const ours = await storedEntries(app.trove, owner.groupId);
      const theirs = await storedEntries(app.trove, outsider.groupId);

      const response = await create(outsider, piano.id, { name: 'Tune', scheduledDate: FUTURE });

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `entity ${piano.id} not found` });
      expect(await storedEntries(app.trove, owner.groupId)).toEqual(ours);
      expect(await storedEntries(app.trove, outsider.groupId)).toEqual(theirs);
    });
  });
});
