import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFeed, type Feed } from '../events/feed.js';
import { as, createEntity, useTestApp } from '../support/api.js';
import { expectUnauthenticated, VIEWER_ONLY_READS } from '../support/auth-expectations.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';

const ACTIONS = [
  '/api/v1/actions/ensure-asset-ids',
  '/api/v1/actions/ensure-import-refs',
  '/api/v1/actions/zero-item-time-fields',
  '/api/v1/actions/wipe-inventory',
];

interface EntityRow {
  name: string;
  asset_id: string;
  import_ref: string | null;
  purchase_date: string | null;
  sold_date: string | null;
  warranty_expires: string | null;
}

describe('entity actions: ensure-asset-ids, ensure-import-refs, zero-item-time-fields', () => {
  const app = useTestApp();

  /** The group's entities as stored, by name. */
  const rows = (groupId: string): Promise<EntityRow[]> =>
    app.trove.query<EntityRow>(
      `SELECT name, asset_id::text AS asset_id, import_ref,
              to_char(purchase_date, 'YYYY-MM-DD') AS purchase_date,
              to_char(sold_date, 'YYYY-MM-DD') AS sold_date,
              to_char(warranty_expires, 'YYYY-MM-DD') AS warranty_expires
       FROM entities WHERE group_id = $1 ORDER BY name`,
      [groupId],
    );
  const setDates = (
    id: string,
    purchase: string | null,
    sold: string | null,
    warranty: string | null,
  ): Promise<unknown> =>
    app.trove.query(
      'UPDATE entities SET purchase_date = $2, sold_date = $3, warranty_expires = $4 WHERE id = $1',
      [id, purchase, sold, warranty],
    );
  const run = (session: Session, path: string) => as(app.trove, session, 'post', path);
  const put = (session: Session, id: string, body: object) =>
    as(app.trove, session, 'put', `/api/v1/entities/${id}`).send(body).expect(200);

  describe('POST /api/v1/actions/ensure-asset-ids', () => {
    const path = '/api/v1/actions/ensure-asset-ids';

    it('numbers the entities without an asset id after the highest, oldest first, once', async () => {
      const owner = await signUp(app.trove);
      const member = await signUpMember(app.trove, owner, 'user');
      const stranger = await signUp(app.trove);
      // A new group has eight starter locations, numbered 1 to 8.
      const first = await createEntity(app.trove, owner, 'First');
      const second = await createEntity(app.trove, owner, 'Second');
      const third = await createEntity(app.trove, owner, 'Third');
      expect([first.assetId, second.assetId, third.assetId]).toEqual([
        '000-009',
        '000-010',
        '000-011',
      ]);
      await put(owner, third.id, { name: 'Third', assetId: '' });
      await put(owner, first.id, { name: 'First', assetId: 0 });
      const theirs = await createEntity(app.trove, stranger, 'Theirs');
      await put(stranger, theirs.id, { name: 'Theirs', assetId: '' });

      const response = await run(member, path);

      expect([response.status, response.body]).toEqual([200, { completed: 2 }]);
      const numbers = Object.fromEntries(
        (await rows(owner.groupId)).map((row) => [row.name, row.asset_id]),
      );
      expect([numbers.First, numbers.Second, numbers.Third]).toEqual(['11', '10', '12']);
      expect((await rows(stranger.groupId)).find((row) => row.name === 'Theirs')?.asset_id).toBe(
        '0',
      );
      const again = await run(owner, path);
      expect([again.status, again.body]).toEqual([200, { completed: 0 }]);
      expect(
        Object.fromEntries((await rows(owner.groupId)).map((r) => [r.name, r.asset_id])),
      ).toEqual(numbers);
      // Entities created afterwards continue after the numbers given.
      expect((await createEntity(app.trove, owner, 'Fourth')).assetId).toBe('000-013');
    });
  });

  describe('POST /api/v1/actions/ensure-import-refs', () => {
    const path = '/api/v1/actions/ensure-import-refs';

    it('gives every entity without an import ref a random one of eight characters, once', async () => {
      const owner = await signUp(app.trove);
      const stranger = await signUp(app.trove);
      await createEntity(app.trove, owner, 'Lamp');
      await createEntity(app.trove, owner, 'Desk');
      await app.trove.query(
        `UPDATE entities SET import_ref = CASE name WHEN 'Lamp' THEN 'kept-ref' ELSE '' END
         WHERE group_id = $1 AND name IN ('Lamp', 'Desk')`,
        [owner.groupId],
      );
      await createEntity(app.trove, stranger, 'Theirs');

      const response = await run(owner, path);

      // Eight starter locations and the desk had none (or an empty one); the lamp keeps its own.
      expect([response.status, response.body]).toEqual([200, { completed: 9 }]);
      const refs = (await rows(owner.groupId)).map((row) => row.import_ref);
      expect(refs).toHaveLength(10);
      for (const ref of refs) expect(ref).toMatch(/^([0-9a-f]{8}|kept-ref)$/);
      expect(refs.filter((ref) => ref === 'kept-ref')).toHaveLength(1);
      expect(new Set(refs).size).toBe(10);
      expect((await rows(stranger.groupId)).map((row) => row.import_ref)).toEqual(
        Array<null>(9).fill(null),
      );
      const before = await rows(owner.groupId);
      const again = await run(owner, path);
      expect([again.status, again.body]).toEqual([200, { completed: 0 }]);
      expect(await rows(owner.groupId)).toEqual(before);
    });
  });

  describe('POST /api/v1/actions/zero-item-time-fields', () => {
    const path = '/api/v1/actions/zero-item-time-fields';

    it('clears purchase, sold and warranty dates before year 100 and keeps real ones, once', async () => {
      const owner = await signUp(app.trove);
      const stranger = await signUp(app.trove);
      const placeholders = await createEntity(app.trove, owner, 'Placeholders');
      const mixed = await createEntity(app.trove, owner, 'Mixed');
      const real = await createEntity(app.trove, owner, 'Real');
      // The API refuses dates before year 100; older imports and databases can hold them.
      await setDates(placeholders.id, '0001-01-01', '0099-12-31', '0001-01-01');
      await setDates(mixed.id, '2020-02-29', '0050-06-01', '0100-01-01');
      await put(owner, real.id, { name: 'Real', purchaseDate: '2024-05-06' });
      const theirs = await createEntity(app.trove, stranger, 'Theirs');
      await setDates(theirs.id, '0001-01-01', null, null);

      const response = await run(owner, path);

      expect([response.status, response.body]).toEqual([200, { completed: 2 }]);
      const dates = (await rows(owner.groupId))
        .filter((row) => ['Placeholders', 'Mixed', 'Real'].includes(row.name))
        .map(({ name, purchase_date, sold_date, warranty_expires }) => ({
          name,
          purchase_date,
          sold_date,
          warranty_expires,
        }));
      expect(dates).toEqual([
        {
          name: 'Mixed',
          purchase_date: '2020-02-29',
          sold_date: null,
          warranty_expires: '0100-01-01',
        },
        { name: 'Placeholders', purchase_date: null, sold_date: null, warranty_expires: null },
        { name: 'Real', purchase_date: '2024-05-06', sold_date: null, warranty_expires: null },
      ]);
      expect(
        (await rows(stranger.groupId)).find((row) => row.name === 'Theirs')?.purchase_date,
      ).toBe('0001-01-01');
      const again = await run(owner, path);
      expect([again.status, again.body]).toEqual([200, { completed: 0 }]);
    });
  });

  describe('change feed', () => {
    let owner: Session;
    let feed: Feed;
    beforeAll(async () => {
      owner = await signUp(app.trove);
      feed = await openFeed(app.trove.baseUrl, {
        headers: { Authorization: owner.authorization },
      });
    });
    afterAll(() => feed.close());

    it('announces entity.mutation when an action changed something, and nothing otherwise', async () => {
      const entity = await createEntity(app.trove, owner, 'Lamp');
      await feed.waitFor('entity.mutation');
      await put(owner, entity.id, { name: 'Lamp', assetId: '' });
      await feed.waitFor('entity.mutation', 2);
      feed.frames.length = 0;

      await run(owner, '/api/v1/actions/ensure-asset-ids').expect(200, { completed: 1 });
      await run(owner, '/api/v1/actions/ensure-asset-ids').expect(200, { completed: 0 });
      await run(owner, '/api/v1/actions/zero-item-time-fields').expect(200, { completed: 0 });
      // A tag made last: once its notice is here, every notice before it has arrived.
      await as(app.trove, owner, 'post', '/api/v1/tags').send({ name: 'Marker' }).expect(201);
      await feed.waitFor('tag.mutation');

      expect(feed.events).toEqual(['entity.mutation', 'tag.mutation']);
    });
  });

  describe('authentication and roles', () => {
    it('every action needs a valid token', async () => {
      for (const path of ACTIONS) await expectUnauthenticated(app.trove, 'post', path);
    });

    it('viewers are refused every action, and nothing changes', async () => {
      const owner = await signUp(app.trove);
      const viewer = await signUpMember(app.trove, owner, 'viewer');
      const entity = await createEntity(app.trove, owner, 'Lamp');
      await put(owner, entity.id, { name: 'Lamp', assetId: '' });
      await setDates(entity.id, '0001-01-01', null, null);
      const before = await rows(owner.groupId);

      for (const path of ACTIONS) {
        const response = await run(viewer, path).send({ wipeTags: true });
        expect([path, response.status, response.body]).toEqual([path, 403, VIEWER_ONLY_READS]);
      }

      expect(await rows(owner.groupId)).toEqual(before);
    });
  });
});
