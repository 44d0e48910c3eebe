import { describe, expect, it } from 'vitest';
import { as, createEntity, UNKNOWN_ID, useSharedApp, type EntityBody } from '../support/api.js';
import { expectUnauthenticated, VIEWER_ONLY_READS } from '../support/auth-expectations.js';
import { signUpMember, type Session } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import { openFeed } from '../events/feed.js';
import { typeId } from '../entities/entity-helpers.js';
import { keyOf, storedKeys } from '../attachments/attachment-helpers.js';

const PATH = '/api/v1/entities/bulk';
const CYCLE = 'an entity cannot be placed inside itself or one of its descendants';

interface Summary extends EntityBody {
  parent: { id: string } | null;
  archived: boolean;
  tags: { id: string; name: string }[];
  entityType: { id: string; name: string };
  [key: string]: unknown;
}

describe('POST /api/v1/entities/bulk', () => {
  const t = useSharedApp();

  const bulk = (session: Session, body: object) => as(t.trove, session, 'post', PATH).send(body);

  const get = async (session: Session, id: string): Promise<Summary> =>
    (await as(t.trove, session, 'get', `/api/v1/entities/${id}`).expect(200)).body as Summary;

  const tag = async (session: Session, name: string): Promise<string> =>
    (
      (await as(t.trove, session, 'post', '/api/v1/tags').send({ name }).expect(201)).body as {
        id: string;
      }
    ).id;

  const location = async (session: Session, name: string, parentId?: string) =>
    createEntity(t.trove, session, {
      name,
      parentId,
      entityTypeId: await typeId(t.trove, session, 'Location'),
    });

  /** Every stored column of the group's entities and their tag links: what "nothing changed" compares. */
  const state = async (trove: TestApp, session: Session) => ({
    entities: await trove.query(`SELECT e.* FROM entities e WHERE e.group_id = $1 ORDER BY e.id`, [
      session.groupId,
    ]),
    tags: await trove.query(
      `SELECT et.* FROM entity_tags et JOIN entities e ON e.id = et.entity_id
       WHERE e.group_id = $1 ORDER BY 1, 2`,
      [session.groupId],
    ),
  });

  /** Asserts the 422 body and that the owner's group is as it was. */
  const expectRefused = async (
    session: Session,
    body: object,
    fields: Record<string, string>,
  ): Promise<void> => {
    const before = await state(t.trove, t.owner);
    const response = await bulk(session, body);
    expect(response.status, JSON.stringify(response.body)).toBe(422);
    expect(response.body).toEqual({ error: 'Validation Error', fields });
    expect(await state(t.trove, t.owner)).toEqual(before);
  };

  describe('success', () => {
    it('move puts every entity under the parent, or at the top level with null', async () => {
      const shelf = await location(t.owner, 'Bulk shelf');
      const items = await Promise.all(
        ['Drill', 'Saw', 'Hammer'].map((name) => createEntity(t.trove, t.owner, name)),
      );
      const ids = items.map((item) => item.id);

      const moved = await bulk(t.owner, { ids, action: 'move', parentId: shelf.id });
      expect(moved.status).toBe(200);
      expect(moved.body).toEqual({ updated: 3 });
      for (const id of ids) expect((await get(t.owner, id)).parent?.id).toBe(shelf.id);

      // Already there: nothing changes, and an id given twice counts once.
      await bulk(t.owner, { ids: [...ids, ids[0]], action: 'move', parentId: shelf.id }).expect(
        200,
        { updated: 0 },
      );

      await bulk(t.owner, { ids: ids.slice(0, 2), action: 'move', parentId: null }).expect(200, {
        updated: 2,
      });
      expect((await get(t.owner, ids[0])).parent).toBeNull();
      expect((await get(t.owner, ids[1])).parent).toBeNull();
      expect((await get(t.owner, ids[2])).parent?.id).toBe(shelf.id);
    });

    it('addTags and removeTags add and take off tags, counting the entities that changed', async () => {
      const red = await tag(t.owner, 'Bulk red');
      const blue = await tag(t.owner, 'Bulk blue');
      const green = await tag(t.owner, 'Bulk green');
      const a = await createEntity(t.trove, t.owner, { name: 'Tagged A', tagIds: [red, green] });
      const b = await createEntity(t.trove, t.owner, { name: 'Tagged B' });
      const c = await createEntity(t.trove, t.owner, { name: 'Tagged C', tagIds: [green] });
      const tagsOf = async (id: string) =>
        (await get(t.owner, id)).tags.map((entry) => entry.name).sort();

      const added = await bulk(t.owner, {
        ids: [a.id, b.id],
        action: 'addTags',
        tagIds: [red, blue],
      });
      expect(added.status).toBe(200);
      expect(added.body).toEqual({ updated: 2 });
      expect(await tagsOf(a.id)).toEqual(['Bulk blue', 'Bulk green', 'Bulk red']);
      expect(await tagsOf(b.id)).toEqual(['Bulk blue', 'Bulk red']);
      expect(await tagsOf(c.id)).toEqual(['Bulk green']);
      // Both have both already.
      await bulk(t.owner, { ids: [a.id, b.id], action: 'addTags', tagIds: [red] }).expect(200, {
        updated: 0,
      });

      const removed = await bulk(t.owner, {
        ids: [a.id, b.id, c.id],
        action: 'removeTags',
        tagIds: [red, blue, red],
      });
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ updated: 2 });
      expect(await tagsOf(a.id)).toEqual(['Bulk green']);
      expect(await tagsOf(b.id)).toEqual([]);
      expect(await tagsOf(c.id)).toEqual(['Bulk green']);
    });

    it('archive and unarchive set the flag, counting the entities that changed', async () => {
      const a = await createEntity(t.trove, t.owner, 'Old lamp');
      const b = await createEntity(t.trove, t.owner, 'Old chair');
      await bulk(t.owner, { ids: [a.id], action: 'archive' }).expect(200, { updated: 1 });
      const archived = await bulk(t.owner, { ids: [a.id, b.id], action: 'archive' });
      expect(archived.status).toBe(200);
      expect(archived.body).toEqual({ updated: 1 });
      expect((await get(t.owner, a.id)).archived).toBe(true);
      expect((await get(t.owner, b.id)).archived).toBe(true);

      await bulk(t.owner, { ids: [a.id, b.id], action: 'unarchive' }).expect(200, { updated: 2 });
      expect((await get(t.owner, a.id)).archived).toBe(false);
      expect((await get(t.owner, b.id)).archived).toBe(false);
    });

    it('setFields sets the given attributes on every entity and keeps the others', async () => {
      const gadget = (
        await as(t.trove, t.owner, 'post', '/api/v1/entity-types')
          .send({ name: 'Bulk gadget', isLocation: false })
          .expect(201)
      ).body as { id: string };
      const a = await createEntity(t.trove, t.owner, {
        name: 'Radio',
        description: 'kept',
        modelNumber: 'R-1',
      });
      const b = await createEntity(t.trove, t.owner, { name: 'Phone', modelNumber: 'P-2' });
      const fields = {
        manufacturer: 'Acme',
        quantity: 3,
        purchasePrice: 12.5,
        purchaseDate: '01/31/2026',
        warrantyExpires: '2028-02-29',
        insured: true,
        notes: 'bought together',
        entityTypeId: gadget.id,
      };

      const response = await bulk(t.owner, { ids: [a.id, b.id], action: 'setFields', fields });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ updated: 2 });
      for (const [id, name, modelNumber] of [
        [a.id, 'Radio', 'R-1'],
        [b.id, 'Phone', 'P-2'],
      ]) {
        const body = await get(t.owner, id);
        expect({
          name: body.name,
          modelNumber: body.modelNumber,
          manufacturer: body.manufacturer,
          quantity: body.quantity,
          purchasePrice: body.purchasePrice,
          purchaseDate: body.purchaseDate,
          warrantyExpires: body.warrantyExpires,
          insured: body.insured,
          notes: body.notes,
          entityType: body.entityType.id,
        }).toEqual({
          name,
          modelNumber,
          manufacturer: 'Acme',
          quantity: 3,
          purchasePrice: 12.5,
          purchaseDate: '2026-01-31',
          warrantyExpires: '2028-02-29',
          insured: true,
          notes: 'bought together',
          entityType: gadget.id,
        });
      }
      expect((await get(t.owner, a.id)).description).toBe('kept');

      // The same values again change nothing; a date set to null clears it.
      await bulk(t.owner, { ids: [a.id, b.id], action: 'setFields', fields }).expect(200, {
        updated: 0,
      });
      await bulk(t.owner, {
        ids: [a.id],
        action: 'setFields',
        fields: { warrantyExpires: null, manufacturer: 'Acme' },
      }).expect(200, { updated: 1 });
      expect((await get(t.owner, a.id)).warrantyExpires).toBe('');
      expect((await get(t.owner, b.id)).warrantyExpires).toBe('2028-02-29');
    });

    it('delete removes the entities with their attachments; what was inside moves to the top', async () => {
      const crate = await location(t.owner, 'Bulk crate');
      const inside = await createEntity(t.trove, t.owner, { name: 'Inside', parentId: crate.id });
      const lamp = await createEntity(t.trove, t.owner, 'Doomed lamp');
      const kept = await createEntity(t.trove, t.owner, 'Kept lamp');
      const attach = (entityId: string, content: Buffer) =>
        as(t.trove, t.owner, 'post', `/api/v1/entities/${entityId}/attachments`)
          .field('name', 'manual.txt')
          .field('type', 'manual')
          .attach('file', content, 'manual.txt')
          .expect(201);
      const own = Buffer.from('read me, bulk');
      const shared = Buffer.from('read me too, bulk');
      await attach(lamp.id, own);
      await attach(crate.id, shared);
      await attach(kept.id, shared);
      expect(await storedKeys(t.trove)).toEqual(
        expect.arrayContaining([keyOf(own, t.owner.groupId), keyOf(shared, t.owner.groupId)]),
      );

      const response = await bulk(t.owner, { ids: [crate.id, lamp.id], action: 'delete' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ updated: 2 });
      await as(t.trove, t.owner, 'get', `/api/v1/entities/${crate.id}`).expect(404);
      await as(t.trove, t.owner, 'get', `/api/v1/entities/${lamp.id}`).expect(404);
      expect((await get(t.owner, inside.id)).parent).toBeNull();
      expect((await get(t.owner, kept.id)).attachments).toHaveLength(1);
      expect(
        await t.trove.query('SELECT id FROM attachments WHERE entity_id = ANY($1::uuid[])', [
          [crate.id, lamp.id],
        ]),
      ).toEqual([]);
      // The file only the deleted lamp used is gone; the one the kept lamp uses too stays.
      const keys = await storedKeys(t.trove);
      expect(keys).not.toContain(keyOf(own, t.owner.groupId));
      expect(keys).toContain(keyOf(shared, t.owner.groupId));
    });

    it('announces one change to the group’s sockets, however many entities it changes', async () => {
      const feed = await openFeed(t.trove.baseUrl, {
        headers: { Authorization: t.owner.authorization },
      });
      try {
        const items = await Promise.all(
          Array.from({ length: 5 }, (_, k) => createEntity(t.trove, t.owner, `Heard ${k}`)),
        );
        await feed.waitFor('entity.mutation', 5);
        feed.frames.length = 0;
        const red = await tag(t.owner, 'Heard red');
        await feed.waitFor('tag.mutation');
        await bulk(t.owner, {
          ids: items.map((item) => item.id),
          action: 'addTags',
          tagIds: [red],
        }).expect(200, { updated: 5 });
        await bulk(t.owner, { ids: items.map((item) => item.id), action: 'archive' }).expect(200, {
          updated: 5,
        });
        // A marker: once it arrives, every notice sent before it has.
        await tag(t.owner, 'Heard marker');
        await feed.waitFor('tag.mutation', 2);
        expect(feed.events).toEqual([
          'tag.mutation',
          'entity.mutation',
          'entity.mutation',
          'tag.mutation',
        ]);
      } finally {
        await feed.close();
      }
    });
  });

  describe('bad input', () => {
    it('refuses missing, empty, too many and malformed ids, and an unknown action', async () => {
      const item = await createEntity(t.trove, t.owner, 'Untouched');
      await expectRefused(
        t.owner,
        { action: 'archive' },
        { ids: 'ids must be a list of 1 to 1000 entity ids' },
      );
      await expectRefused(
        t.owner,
        { ids: [], action: 'archive' },
        { ids: 'ids must be a list of 1 to 1000 entity ids' },
      );
      await expectRefused(
        t.owner,
        { ids: Array.from({ length: 1001 }, () => item.id), action: 'archive' },
        { ids: 'ids must be a list of 1 to 1000 entity ids' },
      );
      await expectRefused(
        t.owner,
        { ids: [item.id, UNKNOWN_ID, 'shelf-3', 4], action: 'archive' },
        { ids: 'ids.2 must be a UUID' },
      );
      await expectRefused(
        t.owner,
        { ids: [item.id], action: 'explode' },
        {
          action:
            'action must be one of the following values: move, addTags, removeTags, archive, unarchive, setFields, delete',
        },
      );
    });

    it('refuses an argument of another action, and a missing one', async () => {
      const item = await createEntity(t.trove, t.owner, 'Argued');
      const red = await tag(t.owner, 'Argued red');
      const ids = [item.id];
      await expectRefused(
        t.owner,
        { ids, action: 'archive', tagIds: [red] },
        { tagIds: 'tagIds is an argument of addTags and removeTags only, not of archive' },
      );
      await expectRefused(
        t.owner,
        { ids, action: 'move', parentId: null, fields: { notes: 'x' } },
        { fields: 'fields is an argument of setFields only, not of move' },
      );
      await expectRefused(
        t.owner,
        { ids, action: 'delete', parentId: null },
        { parentId: 'parentId is an argument of move only, not of delete' },
      );
      await expectRefused(
        t.owner,
        { ids, action: 'move' },
        { parentId: 'parentId is required for move: an entity id, or null for the top level' },
      );
      await expectRefused(
        t.owner,
        { ids, action: 'addTags' },
        { tagIds: 'tagIds is required for addTags' },
      );
      await expectRefused(
        t.owner,
        { ids, action: 'removeTags', tagIds: [] },
        { tagIds: 'tagIds must be a list of 1 to 1000 tag ids' },
      );
      await expectRefused(
        t.owner,
        { ids, action: 'setFields' },
        { fields: 'fields is required for setFields' },
      );
      await expectRefused(
        t.owner,
        { ids, action: 'move', parentId: 'top' },
        { parentId: 'parentId must be a UUID or null' },
      );
    });

    it('refuses fields it may not set, no fields, and values the update body refuses', async () => {
      const item = await createEntity(t.trove, t.owner, 'Fielded');
      const ids = [item.id];
      await expectRefused(
        t.owner,
        { ids, action: 'setFields', fields: { name: 'All the same', notes: 'x', assetId: 3 } },
        {
          fields:
            'fields cannot set name, assetId; only description, quantity, manufacturer, ' +
            'modelNumber, serialNumber, insured, lifetimeWarranty, warrantyExpires, ' +
            'warrantyDetails, purchaseFrom, purchaseDate, purchasePrice, soldTo, soldDate, ' +
            'soldPrice, soldNotes, notes, entityTypeId',
        },
      );
      await expectRefused(
        t.owner,
        { ids, action: 'setFields', fields: {} },
        { fields: 'fields must set at least one attribute' },
      );
      await expectRefused(
        t.owner,
        { ids, action: 'setFields', fields: 'notes' },
        {
          fields:
            'fields must be an object of the attributes to set; nested property fields must be either object or array',
        },
      );
      await expectRefused(
        t.owner,
        {
          ids,
          action: 'setFields',
          fields: {
            quantity: -1,
            purchasePrice: 1.23456,
            soldDate: '31/02/2026',
            manufacturer: 'x'.repeat(256),
            insured: null,
          },
        },
        {
          'fields.quantity': 'quantity must not be less than 0',
          'fields.purchasePrice': 'purchasePrice must be a number with at most 4 decimal places',
          'fields.soldDate': 'soldDate must be a date as YYYY-MM-DD, MM/DD/YYYY or RFC 3339',
          'fields.manufacturer': 'manufacturer must be shorter than or equal to 255 characters',
          'fields.insured': 'insured must be a boolean value',
        },
      );
      await expectRefused(
        t.owner,
        { ids, action: 'setFields', fields: { entityTypeId: UNKNOWN_ID } },
        { 'fields.entityTypeId': `entity type ${UNKNOWN_ID} not found` },
      );
    });

    it('refuses tags and parents that are not the group’s', async () => {
      const item = await createEntity(t.trove, t.owner, 'Guarded item');
      const theirs = await tag(t.stranger, 'Their tag');
      const theirShelf = await location(t.stranger, 'Their shelf');
      const mine = await tag(t.owner, 'My tag');
      await expectRefused(
        t.owner,
        { ids: [item.id], action: 'addTags', tagIds: [mine, theirs] },
        { tagIds: `tag ${theirs} not found` },
      );
      await expectRefused(
        t.owner,
        { ids: [item.id], action: 'removeTags', tagIds: [UNKNOWN_ID] },
        { tagIds: `tag ${UNKNOWN_ID} not found` },
      );
      await expectRefused(
        t.owner,
        { ids: [item.id], action: 'move', parentId: theirShelf.id },
        { parentId: `entity ${theirShelf.id} not found` },
      );
    });

    it('refuses a mix of its own and other ids, listing exactly the others, and changes nothing', async () => {
      const mine = await Promise.all(
        ['Mine 1', 'Mine 2'].map((name) => createEntity(t.trove, t.owner, name)),
      );
      const theirs = await createEntity(t.trove, t.stranger, 'Not mine');
      for (const action of ['archive', 'delete']) {
        await expectRefused(
          t.owner,
          { ids: [mine[0].id, theirs.id, mine[1].id, UNKNOWN_ID, theirs.id], action },
          {
            ids: `these 2 ids are not entities of the group (nothing was changed): ${theirs.id}, ${UNKNOWN_ID}`,
          },
        );
      }
      expect((await get(t.stranger, theirs.id)).archived).toBe(false);
    });

    it('refuses a move that would put an entity inside itself or its own descendants', async () => {
      const room = await location(t.owner, 'Cycle room');
      const shelf = await location(t.owner, 'Cycle shelf', room.id);
      const box = await location(t.owner, 'Cycle box', shelf.id);
      const loose = await createEntity(t.trove, t.owner, 'Cycle loose');
      await expectRefused(
        t.owner,
        { ids: [room.id, loose.id], action: 'move', parentId: box.id },
        { parentId: `${CYCLE}: ${room.id} is the parent or contains it` },
      );
      const refused = await bulk(t.owner, {
        ids: [loose.id, shelf.id, box.id],
        action: 'move',
        parentId: box.id,
      }).expect(422);
      const message = (refused.body as { fields: { parentId: string } }).fields.parentId;
      expect(message).toMatch(new RegExp(`^${CYCLE}: `));
      expect(
        message
          .replace(/^.*: /, '')
          .replace(/ are the parent.*$/, '')
          .split(', ')
          .sort(),
      ).toEqual([shelf.id, box.id].sort());
      expect((await get(t.owner, loose.id)).parent).toBeNull();
      expect((await get(t.owner, room.id)).parent).toBeNull();
    });
  });

  describe('missing or bad token', () => {
    it('answers 401 and changes nothing', async () => {
      const item = await createEntity(t.trove, t.owner, 'Anonymous');
      const before = await state(t.trove, t.owner);
      await expectUnauthenticated(t.trove, 'post', PATH, { ids: [item.id], action: 'delete' });
      expect(await state(t.trove, t.owner)).toEqual(before);
    });
  });

  describe('another group’s user', () => {
    it('finds none of the entities: all of them are listed as unknown and nothing changes', async () => {
      const items = await Promise.all(
        ['Private 1', 'Private 2'].map((name) => createEntity(t.trove, t.owner, name)),
      );
      const ids = items.map((item) => item.id);
      for (const action of ['archive', 'delete']) {
        await expectRefused(
          t.stranger,
          { ids, action },
          {
            ids: `these 2 ids are not entities of the group (nothing was changed): ${ids.join(', ')}`,
          },
        );
      }
      await expectRefused(
        t.stranger,
        { ids: [ids[0]], action: 'archive' },
        { ids: `this id is not an entity of the group (nothing was changed): ${ids[0]}` },
      );
    });
  });

  describe('viewer', () => {
    it('is refused with 403 and nothing changes', async () => {
      const viewer = await signUpMember(t.trove, t.owner, 'viewer');
      const item = await createEntity(t.trove, t.owner, 'Viewed');
      const before = await state(t.trove, t.owner);
      const response = await bulk(viewer, { ids: [item.id], action: 'delete' });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await state(t.trove, t.owner)).toEqual(before);
    });
  });
});
