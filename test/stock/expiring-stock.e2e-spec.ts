import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayIn } from '../../src/platform/calendar/calendar-day.js';
import type { EntityBody } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  expectUnauthenticated,
  EXPIRING_KEYS,
  makeEntity,
  putStock,
  useTestApp,
  validation,
} from './stock-helpers.js';

const EXPIRING = '/api/v1/stock/expiring';

/** A time zone whose day does not end during the test, and that day. */
function zoneAndToday(): { zone: string; today: string } {
  const now = new Date();
  const nearMidnight =
    now.getUTCHours() === 23 || (now.getUTCHours() === 0 && now.getUTCMinutes() < 5);
  const zone = nearMidnight ? 'Asia/Kolkata' : 'UTC';
  return { zone, today: dayIn(zone, now) };
}

describe('GET /api/v1/stock/expiring', () => {
  const { zone, today } = zoneAndToday();
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let fridge: EntityBody;
  let milk: EntityBody;
  let yoghurt: EntityBody;
  let cheese: EntityBody;
  let ham: EntityBody;

  const app = useTestApp({ TROVE_REMINDERS_TIME_ZONE: zone });
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    const make = (spec: Parameters<typeof makeEntity>[2]) => makeEntity(app.trove, owner, spec);

    fridge = await make({ name: 'Fridge', location: true });
    milk = await make({ name: 'Milk', parentId: fridge.id, quantity: 2 });
    yoghurt = await make({ name: 'Yoghurt', parentId: fridge.id });
    cheese = await make({ name: 'Cheese' });
    ham = await make({ name: 'Ham' });
    const eggs = await make({ name: 'Eggs', archived: true });
    const butter = await make({ name: 'Butter' });
    const theirs = await makeEntity(app.trove, outsider, { name: 'Their milk' });

    await putStock(app.trove, owner, milk.id, { expiresOn: addDays(today, -2) });
    await putStock(app.trove, owner, yoghurt.id, { expiresOn: today, minQuantity: 1 });
    await putStock(app.trove, owner, cheese.id, { expiresOn: addDays(today, 30) });
    await putStock(app.trove, owner, ham.id, { expiresOn: addDays(today, 31) });
    await putStock(app.trove, owner, eggs.id, { expiresOn: addDays(today, -1) });
    await putStock(app.trove, owner, butter.id, { minQuantity: 1 });
    await putStock(app.trove, outsider, theirs.id, { expiresOn: today });
  });

  const item = (
    entity: EntityBody,
    quantity: number,
    daysLeft: number,
    location: EntityBody[] = [],
  ) => ({
    id: entity.id,
    name: entity.name,
    assetId: entity.assetId,
    quantity,
    expiresOn: addDays(today, daysLeft),
    expired: daysLeft < 0,
    daysLeft,
    location: location.map((step) => ({ id: step.id, name: step.name })),
  });

  describe('success', () => {
    it('lists what expires within 30 days by default, expired included, by expiry day', async () => {
      const response = await as(app.trove, viewer, 'get', EXPIRING).expect(200);
      expect(response.body).toEqual([
        item(milk, 2, -2, [fridge]),
        item(yoghurt, 1, 0, [fridge]),
        item(cheese, 1, 30),
      ]);
      for (const listed of response.body as object[]) {
        expect(Object.keys(listed).sort()).toEqual(EXPIRING_KEYS);
      }
    });

    it('takes the window from within: 0 is today and before, 31 reaches one day further', async () => {
      const none = await as(app.trove, owner, 'get', `${EXPIRING}?within=0`).expect(200);
      expect(none.body).toEqual([item(milk, 2, -2, [fridge]), item(yoghurt, 1, 0, [fridge])]);
      const wider = await as(app.trove, owner, 'get', `${EXPIRING}?within=31`).expect(200);
      expect((wider.body as { name: string }[]).map((listed) => listed.name)).toEqual([
        'Milk',
        'Yoghurt',
        'Cheese',
        'Ham',
      ]);
      const most = await as(app.trove, owner, 'get', `${EXPIRING}?within=3650`).expect(200);
      expect(most.body).toHaveLength(4);
    });
  });

  describe('bad input', () => {
    it('answers 422 for a window that is not a whole number of days from 0 to 3650', async () => {
      const cases: [string, string][] = [
        ['-1', 'within must not be less than 0'],
        ['3651', 'within must not be greater than 3650'],
        [
          'soon',
          'within must not be greater than 3650; within must not be less than 0; within must be an integer number',
        ],
        [
          '1.5',
          'within must not be greater than 3650; within must not be less than 0; within must be an integer number',
        ],
      ];
      for (const [within, message] of cases) {
        const response = await as(app.trove, owner, 'get', EXPIRING).query({ within });
        expect({ within, status: response.status, body: response.body }).toEqual({
          within,
          status: 422,
          body: validation({ within: message }),
        });
      }
    });
  });

  describe('another group', () => {
    it('lists only its own entities', async () => {
      const response = await as(app.trove, outsider, 'get', EXPIRING).expect(200);
      expect((response.body as { name: string }[]).map((listed) => listed.name)).toEqual([
        'Their milk',
      ]);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', EXPIRING);
    });
  });
});
