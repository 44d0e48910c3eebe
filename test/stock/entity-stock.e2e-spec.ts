import { beforeAll, describe, expect, it } from 'vitest';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createEntity,
  expectUnauthenticated,
  putStock,
  STOCK_KEYS,
  stockPath,
  storedStock,
  UNKNOWN_ID,
  useTestApp,
  validation,
  VIEWER_ONLY_READS,
} from './stock-helpers.js';

const full = { minQuantity: 2, reorderQuantity: 6, expiresOn: '2027-03-31', notes: 'blue pack' };

describe('/api/v1/entities/{id}/stock', () => {
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

  const request = (session: Session, method: 'get' | 'put' | 'delete', id: string) =>
    as(app.trove, session, method, stockPath(id));

  describe('GET', () => {
    it('answers nulls and "" for an entity without settings, and the settings once set', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');

      const none = await request(viewer, 'get', coffee.id).expect(200);
      expect(none.body).toEqual({
        entityId: coffee.id,
        minQuantity: null,
        reorderQuantity: null,
        expiresOn: null,
        notes: '',
      });
      expect(await storedStock(app.trove, owner.groupId)).toEqual([]);

      await putStock(app.trove, owner, coffee.id, full);
      const set = await request(viewer, 'get', coffee.id).expect(200);
      expect(set.body).toEqual({ entityId: coffee.id, ...full });
      expect(Object.keys(set.body).sort()).toEqual(STOCK_KEYS);
    });

    it('answers 400 for an id that is not a UUID and 404 for an unknown one', async () => {
      const malformed = await request(owner, 'get', 'not-an-id');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: id' });
      const unknown = await request(owner, 'get', UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `entity ${UNKNOWN_ID} not found` });
    });

    it('answers 401 without a token and with a bad token', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      await expectUnauthenticated(app.trove, 'get', stockPath(coffee.id));
    });

    it('answers 404 for an entity of another group', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      await putStock(app.trove, owner, coffee.id, full);
      const response = await request(outsider, 'get', coffee.id);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `entity ${coffee.id} not found` });
    });
  });

  describe('PUT', () => {
    it('stores the settings and answers 200 with them; a member may', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');

      const response = await request(member, 'put', coffee.id).send(full).expect(200);

      expect(response.body).toEqual({ entityId: coffee.id, ...full });
      expect(Object.keys(response.body).sort()).toEqual(STOCK_KEYS);
      const [row] = await app.trove.query(
        `SELECT group_id, min_quantity, reorder_quantity, expires_on::text AS expires_on, notes
           FROM entity_stock WHERE entity_id = $1`,
        [coffee.id],
      );
      expect(row).toEqual({
        group_id: owner.groupId,
        min_quantity: 2,
        reorder_quantity: 6,
        expires_on: '2027-03-31',
        notes: 'blue pack',
      });
    });

    it('is a full replacement: omitted and null fields are cleared, undeclared keys ignored', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      await putStock(app.trove, owner, coffee.id, full);

      const response = await request(owner, 'put', coffee.id)
        .send({ minQuantity: 0, expiresOn: null, entityId: UNKNOWN_ID, lowAlerted: true })
        .expect(200);

      expect(response.body).toEqual({
        entityId: coffee.id,
        minQuantity: 0,
        reorderQuantity: null,
        expiresOn: null,
        notes: '',
      });
      const empty = await request(owner, 'put', coffee.id).send({}).expect(200);
      expect(empty.body).toEqual({
        entityId: coffee.id,
        minQuantity: null,
        reorderQuantity: null,
        expiresOn: null,
        notes: '',
      });
      const rows = await app.trove.query(
        'SELECT count(*)::int AS n FROM entity_stock WHERE entity_id = $1',
        [coffee.id],
      );
      expect(rows).toEqual([{ n: 1 }]);
    });

    it('answers 422 naming each bad field and writes nothing', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      await putStock(app.trove, owner, coffee.id, full);
      const fresh = await createEntity(app.trove, owner, 'Tea');
      const before = await storedStock(app.trove, owner.groupId);

      const int = (field: string) => `${field} must be an integer number`;
      const cases: [unknown, Record<string, string>][] = [
        [{ minQuantity: -1 }, { minQuantity: 'minQuantity must not be less than 0' }],
        [{ minQuantity: 1.5 }, { minQuantity: int('minQuantity') }],
        [
          { minQuantity: '3' },
          {
            minQuantity:
              'minQuantity must not be greater than 2147483647; minQuantity must not be less ' +
              `than 0; ${int('minQuantity')}`,
          },
        ],
        [
          { minQuantity: 2147483648 },
          { minQuantity: 'minQuantity must not be greater than 2147483647' },
        ],
        [{ reorderQuantity: -5 }, { reorderQuantity: 'reorderQuantity must not be less than 0' }],
        [{ expiresOn: '2027-02-30' }, { expiresOn: 'expiresOn must be a date as YYYY-MM-DD' }],
        [{ expiresOn: '03/31/2027' }, { expiresOn: 'expiresOn must be a date as YYYY-MM-DD' }],
        [{ expiresOn: 20270331 }, { expiresOn: 'expiresOn must be a date as YYYY-MM-DD' }],
        [
          { notes: 'n'.repeat(1001) },
          { notes: 'notes must be shorter than or equal to 1000 characters' },
        ],
        [
          { notes: 5 },
          {
            notes: 'notes must be shorter than or equal to 1000 characters; notes must be a string',
          },
        ],
      ];
      for (const id of [coffee.id, fresh.id]) {
        for (const [body, fields] of cases) {
          const response = await request(owner, 'put', id).send(body as object);
          expect({ body, status: response.status, response: response.body }).toEqual({
            body,
            status: 422,
            response: validation(fields),
          });
        }
      }
      expect(await storedStock(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 400 for a malformed id and 404 for an unknown one, writing nothing', async () => {
      const before = await storedStock(app.trove, owner.groupId);
      expect((await request(owner, 'put', 'nope').send(full)).status).toBe(400);
      const unknown = await request(owner, 'put', UNKNOWN_ID).send(full);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `entity ${UNKNOWN_ID} not found` });
      expect(await storedStock(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 401 without a token and with a bad token, writing nothing', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      const before = await storedStock(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'put', stockPath(coffee.id), full);
      expect(await storedStock(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 403 to a viewer and 404 to another group, writing nothing', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      await putStock(app.trove, owner, coffee.id, full);
      const before = await storedStock(app.trove, owner.groupId);

      const byViewer = await request(viewer, 'put', coffee.id).send({ minQuantity: 9 });
      expect(byViewer.status).toBe(403);
      expect(byViewer.body).toEqual(VIEWER_ONLY_READS);

      const byOutsider = await request(outsider, 'put', coffee.id).send({ minQuantity: 9 });
      expect(byOutsider.status).toBe(404);
      expect(byOutsider.body).toEqual({ error: `entity ${coffee.id} not found` });

      expect(await storedStock(app.trove, owner.groupId)).toEqual(before);
      expect(await storedStock(app.trove, outsider.groupId)).toEqual([]);
    });
  });

  describe('DELETE', () => {
    it('clears the settings with 204, also when there are none', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      await putStock(app.trove, owner, coffee.id, full);

      const response = await request(member, 'delete', coffee.id).expect(204);
      expect(response.text).toBe('');
      const again = await request(member, 'delete', coffee.id).expect(204);
      expect(again.text).toBe('');

      const rows = await app.trove.query('SELECT 1 FROM entity_stock WHERE entity_id = $1', [
        coffee.id,
      ]);
      expect(rows).toEqual([]);
      const read = await request(owner, 'get', coffee.id).expect(200);
      expect(read.body).toMatchObject({ minQuantity: null, notes: '' });
    });

    it('goes with its entity when the entity is deleted', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      await putStock(app.trove, owner, coffee.id, full);
      await as(app.trove, owner, 'delete', `/api/v1/entities/${coffee.id}`).expect(204);
      const rows = await app.trove.query('SELECT 1 FROM entity_stock WHERE entity_id = $1', [
        coffee.id,
      ]);
      expect(rows).toEqual([]);
    });

    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      const before = await storedStock(app.trove, owner.groupId);
      expect((await request(owner, 'delete', 'nope')).status).toBe(400);
      const unknown = await request(owner, 'delete', UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `entity ${UNKNOWN_ID} not found` });
      expect(await storedStock(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 401 without a token and with a bad token, deleting nothing', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      await putStock(app.trove, owner, coffee.id, full);
      const before = await storedStock(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'delete', stockPath(coffee.id));
      expect(await storedStock(app.trove, owner.groupId)).toEqual(before);
    });

    it('answers 403 to a viewer and 404 to another group, deleting nothing', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      await putStock(app.trove, owner, coffee.id, full);
      const before = await storedStock(app.trove, owner.groupId);

      const byViewer = await request(viewer, 'delete', coffee.id);
      expect(byViewer.status).toBe(403);
      expect(byViewer.body).toEqual(VIEWER_ONLY_READS);
      const byOutsider = await request(outsider, 'delete', coffee.id);
      expect(byOutsider.status).toBe(404);
      expect(byOutsider.body).toEqual({ error: `entity ${coffee.id} not found` });

      expect(await storedStock(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('a duplicate', () => {
    it('carries the settings of the entity it copies, and none when that has none', async () => {
      const coffee = await createEntity(app.trove, owner, 'Coffee');
      await putStock(app.trove, owner, coffee.id, full);
      const copy = await as(app.trove, member, 'post', `/api/v1/entities/${coffee.id}/duplicate`)
        .send({})
        .expect(201);
      const read = await request(viewer, 'get', copy.body.id as string).expect(200);
      expect(read.body).toEqual({ entityId: copy.body.id, ...full });

      const tea = await createEntity(app.trove, owner, 'Tea');
      const plain = await as(app.trove, member, 'post', `/api/v1/entities/${tea.id}/duplicate`)
        .send({})
        .expect(201);
      const rows = await app.trove.query('SELECT 1 FROM entity_stock WHERE entity_id = $1', [
        plain.body.id,
      ]);
      expect(rows).toEqual([]);
    });
  });
});
