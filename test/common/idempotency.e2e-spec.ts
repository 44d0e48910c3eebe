import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { IdempotencyService } from '../../src/platform/idempotency/idempotency.service.js';
import { signUp, type Session } from '../support/factories.js';

const KEY = 'Idempotency-Key';
const IN_PROGRESS = { error: 'a request with this Idempotency-Key is still in progress' };
const BAD_KEY = { error: 'Idempotency-Key must be 1 to 255 printable ASCII characters' };
const REUSED = {
  error: 'Validation Error',
  fields: {
    'Idempotency-Key':
      'was already used for a different request (method, path or body) in the last 24 hours',
  },
};

/** Every operation that creates something, each of which takes the header. */
const CREATING_OPERATIONS = [
  'acceptInvitation',
  'adjustEntityStock',
  'bulkChangeEntities',
  'checkOutEntity',
  'createApiKey',
  'createEntity',
  'createEntityFromTemplate',
  'createEntityType',
  'createExternalAttachment',
  'createGroup',
  'createInvitation',
  'createMaintenanceEntry',
  'createTag',
  'createTemplate',
  'duplicateEntity',
  'returnCheckout',
  'uploadAttachment',
];

describe('Idempotency-Key on creating requests', () => {
  let ada: Session;
  let eve: Session;

  const app = useTestApp();
  beforeAll(async () => {
    ada = await signUp(app.trove, { name: 'Ada' });
    eve = await signUp(app.trove, { name: 'Eve' });
  });

  const post = (session: Session, route: string, body: object, key?: string) => {
    const request = app.trove.http.post(route).set('Authorization', session.authorization);
    return (key === undefined ? request : request.set(KEY, key)).send(body);
  };
  const entityCount = async (session: Session): Promise<number> => {
    const response = await app.trove.http
      .get('/api/v1/entities')
      .set('Authorization', session.authorization)
      .expect(200);
    return (response.body as { total: number }).total;
  };
  const tagNames = async (session: Session): Promise<string[]> => {
    const response = await app.trove.http
      .get('/api/v1/tags')
      .set('Authorization', session.authorization)
      .expect(200);
    return (response.body as { name: string }[]).map((tag) => tag.name);
  };
  const storedKeys = (key: string) =>
    app.trove.query<{ user_id: string; response_status: number | null }>(
      'SELECT user_id, response_status FROM idempotency_keys WHERE key = $1',
      [key],
    );

  describe('a repeat', () => {
    it('answers the first response again (status and body) and creates nothing', async () => {
      const key = randomUUID();
      const before = await entityCount(ada);

      const first = await post(ada, '/api/v1/entities', { name: 'Drill' }, key);
      const second = await post(ada, '/api/v1/entities', { name: 'Drill' }, key);

      expect(first.status).toBe(201);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(second.text).toBe(first.text);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(await entityCount(ada)).toBe(before + 1);
      expect(await storedKeys(key)).toEqual([{ user_id: ada.id, response_status: 201 }]);
    });

    it('keeps the first status where the route answers 200', async () => {
      const key = randomUUID();
      const first = await post(ada, '/api/v1/groups/invitations', { uses: 1 }, key);
      const second = await post(ada, '/api/v1/groups/invitations', { uses: 1 }, key);

      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      const invitations = await app.trove.http
        .get('/api/v1/groups/invitations')
        .set('Authorization', ada.authorization)
        .expect(200);
      expect(
        (invitations.body as { id: string }[]).filter((item) => item.id === first.body.id),
      ).toHaveLength(1);
      expect(invitations.body).toHaveLength(1);
    });

    it('answers a repeated upload without storing the file again', async () => {
      const entity = await post(ada, '/api/v1/entities', { name: 'Camera' }).expect(201);
      const key = randomUUID();
      const upload = () =>
        app.trove.http
          .post(`/api/v1/entities/${entity.body.id}/attachments`)
          .set('Authorization', ada.authorization)
          .set(KEY, key)
          .attach('file', Buffer.from('manual text'), 'manual.txt')
          .field('name', 'manual.txt')
          .field('type', 'manual');

      const first = await upload();
      const second = await upload();

      expect(first.status).toBe(201);
      expect(first.body.attachments).toHaveLength(1);
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      const stored = await app.trove.http
        .get(`/api/v1/entities/${entity.body.id}`)
        .set('Authorization', ada.authorization)
        .expect(200);
      expect(stored.body.attachments).toHaveLength(1);
    });

    it('reads the same JSON in another key order as the same request', async () => {
      const key = randomUUID();
      const first = await post(ada, '/api/v1/tags', { name: 'Order', color: '#112233' }, key);
      const second = await post(ada, '/api/v1/tags', { color: '#112233', name: 'Order' }, key);

      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect((await tagNames(ada)).filter((name) => name === 'Order')).toHaveLength(1);
    });
  });

  describe('without the header', () => {
    it('creates every time, as before', async () => {
      const before = await entityCount(ada);

      const first = await post(ada, '/api/v1/entities', { name: 'Saw' }).expect(201);
      const second = await post(ada, '/api/v1/entities', { name: 'Saw' }).expect(201);

      expect(second.body.id).not.toBe(first.body.id);
      expect(await entityCount(ada)).toBe(before + 2);
    });
  });

  describe('another request with the same key', () => {
    it('is refused with 422 when the body differs, and creates nothing', async () => {
      const key = randomUUID();
      await post(ada, '/api/v1/tags', { name: 'First' }, key).expect(201);

      const response = await post(ada, '/api/v1/tags', { name: 'Second' }, key);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(REUSED);
      expect(await tagNames(ada)).not.toContain('Second');
    });

    it('is refused with 422 when the path differs', async () => {
      const key = randomUUID();
      await post(ada, '/api/v1/tags', { name: 'Path' }, key).expect(201);

      const response = await post(ada, '/api/v1/entity-types', { name: 'Path' }, key);

      expect(response.status).toBe(422);
      expect(response.body).toEqual(REUSED);
    });

    it('is refused with 422 in another group of the same user', async () => {
      const group = await post(ada, '/api/v1/groups', { name: 'Workshop' }).expect(201);
      const key = randomUUID();
      await post(ada, '/api/v1/tags', { name: 'Shared' }, key).expect(201);

      const response = await app.trove.http
        .post('/api/v1/tags')
        .set('Authorization', ada.authorization)
        .set('X-Tenant', group.body.id)
        .set(KEY, key)
        .send({ name: 'Shared' });

      expect(response.status).toBe(422);
      expect(response.body).toEqual(REUSED);
    });
  });

  describe('other users', () => {
    it('use the same key independently, and never get another user’s response', async () => {
      const key = randomUUID();
      const eveBefore = await entityCount(eve);

      const adas = await post(ada, '/api/v1/entities', { name: 'Ladder' }, key).expect(201);
      const eves = await post(eve, '/api/v1/entities', { name: 'Ladder' }, key).expect(201);

      expect(eves.headers['idempotent-replayed']).toBeUndefined();
      expect(eves.body.id).not.toBe(adas.body.id);
      expect(await entityCount(eve)).toBe(eveBefore + 1);
      await app.trove.http
        .get(`/api/v1/entities/${adas.body.id}`)
        .set('Authorization', eve.authorization)
        .expect(404);
      expect((await storedKeys(key)).map((row) => row.user_id).sort()).toEqual(
        [ada.id, eve.id].sort(),
      );
    });
  });

  describe('concurrent requests with the same key', () => {
    it('create exactly once: the others get the first response or 409', async () => {
      const key = randomUUID();
      const name = `Concurrent ${key}`;

      const responses = await Promise.all(
        Array.from({ length: 8 }, () => post(ada, '/api/v1/tags', { name }, key)),
      );

      const created = responses.filter((response) => response.status === 201);
      const busy = responses.filter((response) => response.status === 409);
      expect(created.length + busy.length).toBe(responses.length);
      expect(created.length).toBeGreaterThan(0);
      expect(new Set(created.map((response) => response.body.id)).size).toBe(1);
      for (const response of busy) expect(response.body).toEqual(IN_PROGRESS);
      expect((await tagNames(ada)).filter((tag) => tag === name)).toHaveLength(1);
    });

    it('answer 409 while the first is still running', async () => {
      const key = randomUUID();
      await post(ada, '/api/v1/tags', { name: 'Busy' }, key).expect(201);
      // Make the key unfinished again, as a request still running leaves it.
      await app.trove.query(
        'UPDATE idempotency_keys SET response_status = NULL, response_body = NULL WHERE key = $1',
        [key],
      );

      const response = await post(ada, '/api/v1/tags', { name: 'Busy' }, key);

      expect(response.status).toBe(409);
      expect(response.body).toEqual(IN_PROGRESS);
      expect((await tagNames(ada)).filter((name) => name === 'Busy')).toHaveLength(1);
    });

    it('take over a reservation abandoned for 10 minutes', async () => {
      const key = randomUUID();
      await post(ada, '/api/v1/tags', { name: 'Abandoned' }, key).expect(201);
      await app.trove.query(
        `UPDATE idempotency_keys SET response_status = NULL, response_body = NULL,
           created_at = now() - interval '11 minutes' WHERE key = $1`,
        [key],
      );

      const response = await post(ada, '/api/v1/tags', { name: 'Abandoned' }, key);

      expect(response.status).toBe(201);
      expect(await storedKeys(key)).toEqual([{ user_id: ada.id, response_status: 201 }]);
    });
  });

  describe('a failed request', () => {
    it('does not use up its key, so a retry runs', async () => {
      const key = randomUUID();
      const failed = await post(ada, '/api/v1/tags', { name: '' }, key);
      expect(failed.status).toBe(422);
      expect(await storedKeys(key)).toEqual([]);

      const retried = await post(ada, '/api/v1/tags', { name: 'Retried' }, key);

      expect(retried.status).toBe(201);
      expect(retried.headers['idempotent-replayed']).toBeUndefined();
      expect(await tagNames(ada)).toContain('Retried');
    });
  });

  describe('expiry', () => {
    it('lets a key be used again after 24 hours, creating anew', async () => {
      const key = randomUUID();
      const before = await entityCount(ada);
      const first = await post(ada, '/api/v1/entities', { name: 'Old' }, key).expect(201);
      await app.trove.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 minute' WHERE key = $1`,
        [key],
      );

      const again = await post(ada, '/api/v1/entities', { name: 'Old' }, key).expect(201);

      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.id).not.toBe(first.body.id);
      expect(await entityCount(ada)).toBe(before + 2);
    });

    it('purges keys older than 24 hours and keeps younger ones', async () => {
      const old = randomUUID();
      const young = randomUUID();
      await post(ada, '/api/v1/tags', { name: 'Purged' }, old).expect(201);
      await post(ada, '/api/v1/tags', { name: 'Kept' }, young).expect(201);
      await app.trove.query(
        `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`,
        [old],
      );

      const purged = await app.trove.app.get(IdempotencyService).purge();

      expect(purged).toBeGreaterThanOrEqual(1);
      expect(await storedKeys(old)).toEqual([]);
      expect(await storedKeys(young)).toHaveLength(1);
    });
  });

  describe('bad keys', () => {
    it.each([
      ['longer than 255 characters', 'k'.repeat(256)],
      ['not ASCII', 'clé'],
      ['holding a control character', 'a\tb'],
      ['empty', ''],
    ])('are refused with 400 when %s, creating nothing', async (_case, key) => {
      const name = `Bad key ${randomUUID()}`;

      const response = await post(ada, '/api/v1/tags', { name }, key);

      expect(response.status).toBe(400);
      expect(response.body).toEqual(BAD_KEY);
      expect(await tagNames(ada)).not.toContain(name);
    });

    it('accept exactly 255 printable characters', async () => {
      await post(ada, '/api/v1/tags', { name: 'Long key' }, `a ${'~'.repeat(252)}!`).expect(201);
    });

    it('are ignored on routes that create nothing', async () => {
      const tag = await post(ada, '/api/v1/tags', { name: 'Renamed' }).expect(201);

      await app.trove.http
        .put(`/api/v1/tags/${tag.body.id}`)
        .set('Authorization', ada.authorization)
        .set(KEY, 'k'.repeat(300))
        .send({ name: 'Renamed again' })
        .expect(200);
    });
  });

  it('without a token is 401 and stores nothing', async () => {
    const key = randomUUID();
    await app.trove.http.post('/api/v1/tags').set(KEY, key).send({ name: 'Anon' }).expect(401);
    expect(await storedKeys(key)).toEqual([]);
  });

  it('is documented on every creating operation', async () => {
    const document = await app.trove.http.get('/swagger/openapi.json').expect(200);
    const withHeader: string[] = [];
    for (const item of Object.values(document.body.paths as Record<string, object>)) {
      for (const operation of Object.values(item) as {
        operationId: string;
        parameters?: { name: string; in: string }[];
      }[]) {
        if (operation.parameters?.some((p) => p.in === 'header' && p.name === KEY)) {
          withHeader.push(operation.operationId);
        }
      }
    }
    expect(withHeader.sort()).toEqual(CREATING_OPERATIONS);
  });
});
