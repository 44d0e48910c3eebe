import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityBody } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  expectUnauthenticated,
  LOW_KEYS,
  makeEntity,
  putStock,
  useTestApp,
} from './stock-helpers.js';

const LOW = '/api/v1/stock/low';

describe('GET /api/v1/stock/low', () => {
  let owner: Session;
  let viewer: Session;
  let outsider: Session;
  let house: EntityBody;
  let kitchen: EntityBody;
  let garage: EntityBody;
  let coffee: EntityBody;
  let tea: EntityBody;
  let oil: EntityBody;
  let nails: EntityBody;

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    const make = (spec: Parameters<typeof makeEntity>[2]) => makeEntity(app.trove, owner, spec);

    house = await make({ name: 'House', location: true });
    kitchen = await make({ name: 'Kitchen', location: true, parentId: house.id });
    garage = await make({ name: 'garage', location: true });
    coffee = await make({ name: 'Coffee', parentId: kitchen.id, quantity: 1 });
    tea = await make({ name: 'Tea', parentId: kitchen.id, quantity: 2 });
    const beans = await make({ name: 'Beans', parentId: kitchen.id, quantity: 3 });
    oil = await make({ name: 'Oil', parentId: garage.id, quantity: 0 });
    nails = await make({ name: 'Nails', quantity: 1.5 });
    const salt = await make({ name: 'Salt', parentId: kitchen.id, quantity: 0, archived: true });
    const sugar = await make({ name: 'Sugar', parentId: kitchen.id, quantity: 0 });
    const theirs = await makeEntity(app.trove, outsider, { name: 'Their coffee', quantity: 0 });

    await putStock(app.trove, owner, coffee.id, { minQuantity: 2, reorderQuantity: 6 });
    await putStock(app.trove, owner, tea.id, { minQuantity: 2 });
    await putStock(app.trove, owner, beans.id, { minQuantity: 2, reorderQuantity: 4 });
    await putStock(app.trove, owner, oil.id, { minQuantity: 0 });
    await putStock(app.trove, owner, nails.id, { minQuantity: 3, notes: 'the long ones' });
    await putStock(app.trove, owner, salt.id, { minQuantity: 1 });
    await putStock(app.trove, owner, sugar.id, { expiresOn: '2030-01-01' });
    await putStock(app.trove, outsider, theirs.id, { minQuantity: 5 });
  });

  const step = (entity: EntityBody) => ({ id: entity.id, name: entity.name });

  describe('success', () => {
    it('lists the unarchived entities at or below their minimum, by location path then name', async () => {
      const response = await as(app.trove, viewer, 'get', LOW).expect(200);

      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual([
        {
          id: nails.id,
          name: 'Nails',
          assetId: nails.assetId,
          quantity: 1.5,
          minQuantity: 3,
          reorderQuantity: null,
          reorder: 2,
          location: [],
        },
        {
          id: oil.id,
          name: 'Oil',
          assetId: oil.assetId,
          quantity: 0,
          minQuantity: 0,
          reorderQuantity: null,
          reorder: 1,
          location: [step(garage)],
        },
        {
          id: coffee.id,
          name: 'Coffee',
          assetId: coffee.assetId,
          quantity: 1,
          minQuantity: 2,
          reorderQuantity: 6,
          reorder: 6,
          location: [step(house), step(kitchen)],
        },
        {
          id: tea.id,
          name: 'Tea',
          assetId: tea.assetId,
          quantity: 2,
          minQuantity: 2,
          reorderQuantity: null,
          reorder: 1,
          location: [step(house), step(kitchen)],
        },
      ]);
      for (const item of response.body as object[])
        expect(Object.keys(item).sort()).toEqual(LOW_KEYS);
    });

    it('answers the same list as a CSV shopping list to Accept: text/csv', async () => {
      const response = await as(app.trove, owner, 'get', LOW).set('Accept', 'text/csv').expect(200);

      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe('attachment; filename="low-stock.csv"');
      expect(response.text).toBe(
        [
          'Name,Asset ID,Location,Quantity,Minimum,Reorder',
          `Nails,${nails.assetId},,1.5,3,2`,
          `Oil,${oil.assetId},garage,0,0,1`,
          `Coffee,${coffee.assetId},House / Kitchen,1,2,6`,
          `Tea,${tea.assetId},House / Kitchen,2,2,1`,
          '',
        ].join('\n'),
      );
    });

    it('follows quantity changes: restocked above the minimum leaves the list', async () => {
      const patched = await as(app.trove, owner, 'patch', `/api/v1/entities/${tea.id}`).send({
        quantity: 3,
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const response = await as(app.trove, owner, 'get', LOW).expect(200);
      expect((response.body as { name: string }[]).map((item) => item.name)).toEqual([
        'Nails',
        'Oil',
        'Coffee',
      ]);
      await as(app.trove, owner, 'patch', `/api/v1/entities/${tea.id}`)
        .send({ quantity: 2 })
        .expect(200);
    });
  });

  describe('another group', () => {
    it('lists only its own entities, and an empty list (or header) when none is low', async () => {
      const theirs = await as(app.trove, outsider, 'get', LOW).expect(200);
      expect((theirs.body as { name: string }[]).map((item) => item.name)).toEqual([
        'Their coffee',
      ]);
      const lonely = await signUp(app.trove, { name: 'Cy' });
      const none = await as(app.trove, lonely, 'get', LOW).expect(200);
      expect(none.body).toEqual([]);
      const csv = await as(app.trove, lonely, 'get', LOW).set('Accept', 'text/csv').expect(200);
      expect(csv.text).toBe('Name,Asset ID,Location,Quantity,Minimum,Reorder\n');
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token and with a bad token', async () => {
      await expectUnauthenticated(app.trove, 'get', LOW);
    });
  });
});
