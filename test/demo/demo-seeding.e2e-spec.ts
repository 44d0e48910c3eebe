import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { secondInstance, createTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase } from '../support/test-database.js';

const DEMO_EMAIL = 'demo@example.com';

const SAMPLE_ITEMS = [
  'Box of wood screws',
  'Cast iron skillet',
  'Cordless drill',
  'Espresso machine',
  'Head torch',
  'Orbital sander',
  'Sleeping bag',
  'Two-person tent',
];

type Http = TestApp['http'];

/** Signs in as the demo account; the status and, on success, the session's Authorization. */
const signInAsDemo = async (http: Http, password: string): Promise<[number, string]> => {
  const response = await http.post('/api/v1/users/login').send({ username: DEMO_EMAIL, password });
  return [
    response.status,
    response.status === 200 ? (response.body as { token: string }).token : '',
  ];
};

/** What is stored of the demo account: how many users and entities, by kind. */
const storedDemo = (trove: TestApp) =>
  trove.query<{ users: number; entities: number; tags: number }>(
    `SELECT (SELECT count(*)::int FROM users WHERE email = $1) AS users,
            (SELECT count(*)::int FROM entities e JOIN users u ON u.default_group_id = e.group_id
              WHERE u.email = $1) AS entities,
            (SELECT count(*)::int FROM tags t JOIN users u ON u.default_group_id = t.group_id
              WHERE u.email = $1) AS tags`,
    [DEMO_EMAIL],
  );

describe('demo mode seeds the demo account', () => {
  const app = useTestApp({ TROVE_DEMO: 'true', TROVE_THUMBNAIL_ENABLED: 'false' });

  it('signs in as demo@example.com with demodemo and lists the sample items in their locations', async () => {
    const [status, authorization] = await signInAsDemo(app.trove.http, 'demodemo');
    expect(status).toBe(200);
    const self = await app.trove.http.get('/api/v1/users/self').set('Authorization', authorization);
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ item: { name: 'Demo', email: DEMO_EMAIL } });

    const listed = await app.trove.http
      .get('/api/v1/entities')
      .query({ pageSize: 100 })
      .set('Authorization', authorization);
    expect(listed.status).toBe(200);
    const items = (
      listed.body as {
        items: { name: string; location: { name: string } | null; tags: { name: string }[] }[];
      }
    ).items;
    expect(items.map((item) => item.name).sort()).toEqual(SAMPLE_ITEMS);
    const drillId = (items as unknown as { id: string; name: string }[]).find(
      (item) => item.name === 'Cordless drill',
    )!.id;
    const drill = await app.trove.http
      .get(`/api/v1/entities/${drillId}`)
      .set('Authorization', authorization);
    expect(drill.status).toBe(200);
    const body = drill.body as { location: { name: string } | null; tags: { name: string }[] };
    expect(body.location?.name).toBe('Workbench');
    expect(body.tags.map((tag) => tag.name).sort()).toEqual(['Power tools', 'Warranty']);
  });

  it('keeps the refusals of demo mode', async () => {
    const [, authorization] = await signInAsDemo(app.trove.http, 'demodemo');
    const change = await app.trove.http
      .put('/api/v1/users/change-password')
      .set('Authorization', authorization)
      .send({ current: 'demodemo', new: 'another password' });
    expect([change.status, change.body]).toEqual([403, { error: 'not allowed in demo mode' }]);
  });

  it('a second start on the same database seeds nothing again', async () => {
    const before = await storedDemo(app.trove);
    expect(before[0].users).toBe(1);
    const second = await secondInstance(app.trove);
    try {
      expect(await storedDemo(app.trove)).toEqual(before);
      expect((await signInAsDemo(second.http, 'demodemo'))[0]).toBe(200);
    } finally {
      await second.app.close();
    }
  });
});

describe('demo mode with TROVE_DEMO_PASSWORD', () => {
  it('instances starting at once on a new database seed one account with that password', async () => {
    const database = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'trove-demo-'));
    const env = {
      TROVE_DEMO: 'true',
      TROVE_DEMO_PASSWORD: 'short',
      TROVE_THUMBNAIL_ENABLED: 'false',
    };
    const started = await Promise.allSettled([
      createTestApp(env, { database, dataDir }),
      createTestApp(env, { database, dataDir }),
    ]);
    try {
      expect(started.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
      const [first] = started as PromiseFulfilledResult<TestApp>[];
      const [stored] = await storedDemo(first.value);
      expect(stored.users).toBe(1);
      expect(stored.tags).toBeGreaterThanOrEqual(4);
      expect((await signInAsDemo(first.value.http, 'short'))[0]).toBe(200);
      expect((await signInAsDemo(first.value.http, 'demodemo'))[0]).toBe(401);
    } finally {
      for (const result of started) if (result.status === 'fulfilled') await result.value.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
