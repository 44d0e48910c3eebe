import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyOf, storedKeys, uploadOk, validation } from '../attachments/attachment-helpers.js';
import { openFeed, type Feed } from '../events/feed.js';
import { as, createEntity, useTestApp } from '../support/api.js';
import { VIEWER_ONLY_READS } from '../support/auth-expectations.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';

const PATH = '/api/v1/actions/wipe-inventory';
const OWNERS_ONLY = { error: 'only group owners can wipe inventory' };

/** Eight starter locations and six starter tags come with every new group. */
const STARTER_LOCATIONS = 8;
const STARTER_TAGS = 6;

describe('POST /api/v1/actions/wipe-inventory', () => {
  const app = useTestApp({ TROVE_THUMBNAIL_ENABLED: 'false' });

  const wipe = (session: Session, body?: unknown) => {
    const request = as(app.trove, session, 'post', PATH);
    return body === undefined ? request : request.send(body as object);
  };
  const count = async (sql: string, groupId: string): Promise<number> => {
    const [row] = await app.trove.query<{ count: number }>(sql, [groupId]);
    return row.count;
  };
  /** How many entities, tags, maintenance entries and attachments the group has. */
  const inventory = async (groupId: string) => ({
    entities: await count(
      'SELECT count(*)::int AS count FROM entities WHERE group_id = $1',
      groupId,
    ),
    tags: await count('SELECT count(*)::int AS count FROM tags WHERE group_id = $1', groupId),
    maintenance: await count(
      `SELECT count(*)::int AS count FROM maintenance_entries m
       JOIN entities e ON e.id = m.entity_id WHERE e.group_id = $1`,
      groupId,
    ),
    attachments: await count(
      `SELECT count(*)::int AS count FROM attachments a
       JOIN entities e ON e.id = a.entity_id WHERE e.group_id = $1`,
      groupId,
    ),
  });

  /**
   * A group with a box holding a lamp (two maintenance entries, a tag, a file), a file shared
   * by box and lamp, the starter locations and tags; the ids and file keys.
   */
  const stock = async (owner: Session) => {
    const tag = await as(app.trove, owner, 'post', '/api/v1/tags')
      .send({ name: 'Fragile' })
      .expect(201);
    const box = await createEntity(app.trove, owner, 'Box');
    const lamp = await createEntity(app.trove, owner, {
      name: 'Lamp',
      parentId: box.id,
      tagIds: [tag.body.id],
    });
    for (const name of ['Bulb', 'Dusting']) {
      await as(app.trove, owner, 'post', `/api/v1/entities/${lamp.id}/maintenance`)
        .send({ name, completedDate: '2025-01-02' })
        .expect(201);
    }
    const manual = Buffer.from(`manual of ${owner.groupId}`);
    const receipt = Buffer.from(`receipt of ${owner.groupId}`);
    await uploadOk(app.trove, owner, lamp.id, { content: manual, name: 'manual.txt' });
    await uploadOk(app.trove, owner, lamp.id, { content: receipt, name: 'receipt.txt' });
    await uploadOk(app.trove, owner, box.id, { content: receipt, name: 'receipt.txt' });
    return {
      box,
      lamp,
      keys: [keyOf(manual, owner.groupId), keyOf(receipt, owner.groupId)],
    };
  };

  describe('success', () => {
    let owner: Session;
    let stranger: Session;
    let theirs: Awaited<ReturnType<typeof stock>>;
    beforeAll(async () => {
      stranger = await signUp(app.trove);
      theirs = await stock(stranger);
    });

    it('without a body deletes every entity (locations too) with its rows and files, keeping tags', async () => {
      owner = await signUp(app.trove);
      const mine = await stock(owner);
      expect(await inventory(owner.groupId)).toEqual({
        entities: STARTER_LOCATIONS + 2,
        tags: STARTER_TAGS + 1,
        maintenance: 2,
        attachments: 3,
      });
      const strangerBefore = await inventory(stranger.groupId);
      expect(await storedKeys(app.trove)).toEqual(expect.arrayContaining(mine.keys));

      const response = await wipe(owner);

      expect([response.status, response.body]).toEqual([200, { completed: STARTER_LOCATIONS + 2 }]);
      expect(await inventory(owner.groupId)).toEqual({
        entities: 0,
        tags: STARTER_TAGS + 1,
        maintenance: 0,
        attachments: 0,
      });
      const keys = await storedKeys(app.trove);
      for (const key of mine.keys) expect(keys).not.toContain(key);
      expect(keys).toEqual(expect.arrayContaining(theirs.keys));
      expect(await inventory(stranger.groupId)).toEqual(strangerBefore);
      const list = await as(app.trove, owner, 'get', '/api/v1/entities').expect(200);
      expect(list.body.items).toEqual([]);
      await as(app.trove, stranger, 'get', `/api/v1/entities/${theirs.lamp.id}`).expect(200);

      const again = await wipe(owner);
      expect([again.status, again.body]).toEqual([200, { completed: 0 }]);
    });

    it('counts tags with wipeTags and maintenance entries with wipeMaintenance; wipeLocations changes nothing', async () => {
      owner = await signUp(app.trove);
      await stock(owner);
      const strangerBefore = await inventory(stranger.groupId);

      const response = await wipe(owner, {
        wipeTags: true,
        wipeLocations: false,
        wipeMaintenance: true,
      });

      expect([response.status, response.body]).toEqual([
        200,
        { completed: STARTER_LOCATIONS + 2 + STARTER_TAGS + 1 + 2 },
      ]);
      expect(await inventory(owner.groupId)).toEqual({
        entities: 0,
        tags: 0,
        maintenance: 0,
        attachments: 0,
      });
      expect(await inventory(stranger.groupId)).toEqual(strangerBefore);
      const tags = await as(app.trove, owner, 'get', '/api/v1/tags').expect(200);
      expect(tags.body).toEqual([]);

      const again = await wipe(owner, {
        wipeTags: true,
        wipeLocations: true,
        wipeMaintenance: true,
      });
      expect([again.status, again.body]).toEqual([200, { completed: 0 }]);
    });

    it('ignores keys it does not know, as every body does', async () => {
      owner = await signUp(app.trove);
      const response = await wipe(owner, { wipeEverything: true, wipeTags: false });
      expect([response.status, response.body]).toEqual([200, { completed: STARTER_LOCATIONS }]);
      expect(await inventory(owner.groupId)).toMatchObject({ entities: 0, tags: STARTER_TAGS });
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

    it('announces tag.mutation and entity.mutation when it deleted them, nothing when it deleted nothing', async () => {
      await wipe(owner, { wipeTags: true }).expect(200, {
        completed: STARTER_LOCATIONS + STARTER_TAGS,
      });
      await wipe(owner, { wipeTags: true }).expect(200, { completed: 0 });
      // A tag made last: once its notice is here, every notice before it has arrived.
      await as(app.trove, owner, 'post', '/api/v1/tags').send({ name: 'Marker' }).expect(201);
      await feed.waitFor('tag.mutation', 2);

      expect(feed.events).toEqual(['tag.mutation', 'entity.mutation', 'tag.mutation']);
    });
  });

  describe('bad bodies', () => {
    let owner: Session;
    beforeAll(async () => {
      owner = await signUp(app.trove);
    });

    it.each([
      [{ wipeTags: 'yes' }, { wipeTags: 'wipeTags must be a boolean value' }],
      [{ wipeLocations: 1 }, { wipeLocations: 'wipeLocations must be a boolean value' }],
      [{ wipeMaintenance: 'true' }, { wipeMaintenance: 'wipeMaintenance must be a boolean value' }],
      [[{ wipeTags: true }], { body: 'Validation failed (object is expected)' }],
    ])('%j is a 422 and deletes nothing', async (body, fields) => {
      const response = await wipe(owner, body);
      expect([response.status, response.body]).toEqual([422, validation(fields)]);
      expect(await inventory(owner.groupId)).toMatchObject({
        entities: STARTER_LOCATIONS,
        tags: STARTER_TAGS,
      });
    });
  });

  describe('who may wipe', () => {
    let owner: Session;
    beforeAll(async () => {
      owner = await signUp(app.trove);
      await createEntity(app.trove, owner, 'Lamp');
    });

    it('refuses members who are not owners, and viewers, deleting nothing', async () => {
      const member = await signUpMember(app.trove, owner, 'user');
      const viewer = await signUpMember(app.trove, owner, 'viewer');
      const before = await inventory(owner.groupId);

      const byMember = await wipe(member, { wipeTags: true });
      const byViewer = await wipe(viewer);

      expect([byMember.status, byMember.body]).toEqual([403, OWNERS_ONLY]);
      expect([byViewer.status, byViewer.body]).toEqual([403, VIEWER_ONLY_READS]);
      expect(await inventory(owner.groupId)).toEqual(before);
    });

    it('an owner of another group wipes only their own', async () => {
      const stranger = await signUp(app.trove);
      const before = await inventory(owner.groupId);

      await wipe(stranger).expect(200, { completed: STARTER_LOCATIONS });

      expect(await inventory(owner.groupId)).toEqual(before);
    });
  });
});
