import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type Session } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const EACH = 60;

/**
 * Many multi-table writes of one group at once: each runs in one unit of work on one pooled
 * connection, so requests wait their turn for a connection instead of holding one while waiting
 * for another. Nothing answers 5xx, whatever the pool's size.
 */
describe.each<{ pool: string; env: Record<string, string> }>([
  // The wait for a free connection is long enough that a busy test machine never reaches it.
  { pool: 'the default pool', env: { TROVE_DATABASE_POOL_WAIT: '120' } },
  {
    pool: 'a pool of two connections',
    env: { TROVE_DATABASE_POOL_SIZE: '2', TROVE_DATABASE_POOL_WAIT: '120' },
  },
])('concurrent writes in one group with $pool', ({ env }) => {
  let trove: TestApp;
  let owner: Session;

  beforeAll(async () => {
    trove = await createTestApp(env);
    owner = await signUp(trove);
  });
  afterAll(() => trove.close());

  const send = (method: 'post' | 'put', path: string, body: object) =>
    trove.http[method](path).set('Authorization', owner.authorization).send(body);

  it(`answers ${EACH * 3} create-items, duplicates and updates sent at once, all stored`, async () => {
    const tag = (await send('post', '/api/v1/tags', { name: 'Batch' }).expect(201)).body as {
      id: string;
    };
    const template = (
      await send('post', '/api/v1/templates', {
        name: 'Cable',
        defaultName: 'Cable {{counter}}',
        defaultTagIds: [tag.id],
        fields: [{ type: 'text', name: 'Length', textValue: '2 m' }],
      }).expect(201)
    ).body as { id: string };
    const entity = (
      await send('post', '/api/v1/entities', { name: 'Original', tagIds: [tag.id] }).expect(201)
    ).body as { id: string };
    const types = (
      await trove.http
        .get('/api/v1/entity-types')
        .set('Authorization', owner.authorization)
        .expect(200)
    ).body as { id: string; isLocation: boolean }[];
    const itemType = types.find((type) => !type.isLocation)!;
    const targets = await Promise.all(
      Array.from({ length: EACH }, async (_, index) => {
        const response = await send('post', '/api/v1/entities', { name: `Target ${index}` });
        expect(response.status).toBe(201);
        return (response.body as { id: string }).id;
      }),
    );

    const responses = await Promise.all([
      ...Array.from({ length: EACH }, () =>
        send('post', `/api/v1/templates/${template.id}/create-item`, {
          tagIds: [tag.id],
          entityTypeId: itemType.id,
        }),
      ),
      ...Array.from({ length: EACH }, () =>
        send('post', `/api/v1/entities/${entity.id}/duplicate`, { copyCustomFields: true }),
      ),
      ...targets.map((id, index) =>
        send('put', `/api/v1/entities/${id}`, {
          id,
          name: `Updated ${index}`,
          entityTypeId: itemType.id,
          parentId: entity.id,
          tagIds: [tag.id],
          fields: [{ type: 'text', name: 'Note', textValue: String(index) }],
        }),
      ),
    ]);
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses.slice(0, EACH * 2).every((status) => status === 201)).toBe(true);
    expect(statuses.slice(EACH * 2).every((status) => status === 200)).toBe(true);

    const [{ count }] = await trove.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM entities WHERE group_id = $1',
      [owner.groupId],
    );
    // The starter locations, the original, the targets, and one per create-item and duplicate.
    expect(count).toBe(8 + 1 + EACH + EACH * 2);
    const assetIds = await trove.query<{ duplicates: number }>(
      // A PUT without an asset id clears it (to 0), as Homebox does; the others stay distinct.
      `SELECT count(*) - count(DISTINCT asset_id) AS duplicates FROM entities
       WHERE group_id = $1 AND asset_id > 0`,
      [owner.groupId],
    );
    expect(Number(assetIds[0].duplicates)).toBe(0);
  });
});

describe('a pool that stays exhausted past its wait', () => {
  let trove: TestApp;
  let owner: Session;

  beforeAll(async () => {
    trove = await createTestApp({ TROVE_DATABASE_POOL_SIZE: '2', TROVE_DATABASE_POOL_WAIT: '1' });
    owner = await signUp(trove);
  });
  afterAll(() => trove.close());

  it('answers 503 with Retry-After to the requests that waited too long, never 500', async () => {
    // Hold the group's row, which every create locks to take the next asset id: the first two
    // creates then keep the pool's two connections until the row is let go.
    const blocker = new pg.Client({ connectionString: trove.database.url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT id FROM groups WHERE id = $1 FOR UPDATE', [owner.groupId]);
      const send = () =>
        trove.http
          .post('/api/v1/entities')
          .set('Authorization', owner.authorization)
          .send({ name: 'Waiting' });
      const first = Promise.all([send(), send()]);
      // Both connections are taken once two sessions wait for the row's lock.
      for (let waiting = 0; waiting < 2;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const [row] = await trove.query<{ count: number }>(
          `SELECT count(*)::int AS count FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        waiting = row.count;
      }
      const waiting = await Promise.all([send(), send(), send()]);
      for (const response of waiting) {
        expect(response.status).toBe(503);
        expect(response.headers['retry-after']).toBe('5');
        expect(response.body).toEqual({ error: 'database unavailable' });
      }
      await blocker.query('COMMIT');
      expect((await first).map((response) => response.status)).toEqual([201, 201]);
    } finally {
      await blocker.end();
    }
    const after = await trove.http
      .post('/api/v1/entities')
      .set('Authorization', owner.authorization)
      .send({ name: 'After' });
    expect(after.status).toBe(201);
  });
});
