import { beforeAll, describe, expect, it } from 'vitest';
import { as, createEntity, UNKNOWN_ID, useTestApp, type EntityBody } from '../support/api.js';
import { expectUnauthenticated, validation } from '../support/auth-expectations.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import { csv, importOk } from '../entities-import/import-helpers.js';
import {
  ENTRY_KEYS,
  historyOf,
  storedHistory,
  userActor,
  type HistoryEntry,
} from './history-helpers.js';

describe('GET /api/v1/entities/{id}/history', () => {
  const app = useTestApp();
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;

  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
  });

  const put = (session: Session, entity: EntityBody, changes: Record<string, unknown>) =>
    as(app.trove, session, 'put', `/api/v1/entities/${entity.id}`).send({
      name: entity.name,
      quantity: entity.quantity,
      assetId: entity.assetId,
      ...changes,
    });

  const tag = async (name: string): Promise<string> => {
    const response = await as(app.trove, owner, 'post', '/api/v1/tags').send({ name }).expect(201);
    return (response.body as { id: string }).id;
  };

  describe('success', () => {
    it('records a create with who, the operation and every value given, in the exact shape', async () => {
      const drill = await createEntity(app.trove, owner, {
        name: 'Drill',
        quantity: 2,
        manufacturer: 'Bosch',
      });
      const page = await historyOf(app.trove, owner, drill.id);
      const type = drill.entityType as { id: string };

      expect(page).toEqual({ page: 1, pageSize: 50, total: 1, items: [expect.any(Object)] });
      const [entry] = page.items;
      expect(Object.keys(entry).sort()).toEqual(ENTRY_KEYS);
      expect(entry).toEqual({
        id: expect.any(String),
        entityId: drill.id,
        entityName: 'Drill',
        action: 'create',
        operation: 'POST /api/v1/entities',
        changedAt: expect.any(String),
        actor: userActor(owner),
        changes: [
          { field: 'assetId', before: null, after: Number(drill.assetId.replace('-', '')) },
          { field: 'entityTypeId', before: null, after: type.id },
          { field: 'manufacturer', before: null, after: 'Bosch' },
          { field: 'name', before: null, after: 'Drill' },
          { field: 'quantity', before: null, after: 2 },
        ],
      });
      expect(Math.abs(Date.parse(entry.changedAt) - Date.now())).toBeLessThan(60_000);
    });

    it('records one entry for a PUT that changes fields, tags and custom fields, with exact before and after', async () => {
      const tools = await tag('Tools');
      const drill = await createEntity(app.trove, owner, { name: 'Saw', quantity: 1 });
      await put(member, drill, {
        name: 'Circular saw',
        quantity: 3,
        purchasePrice: 129.5,
        insured: true,
        tagIds: [tools],
        fields: [{ type: 'text', name: 'Blade', textValue: '190 mm' }],
      }).expect(200);

      const { items } = await historyOf(app.trove, owner, drill.id);
      expect(items.map((entry) => entry.action)).toEqual(['update', 'create']);
      expect(items[0]).toMatchObject({
        entityName: 'Circular saw',
        operation: 'PUT /api/v1/entities/{id}',
        actor: userActor(member),
      });
      expect(items[0].changes).toEqual([
        { field: 'fields.Blade', before: null, after: '190 mm' },
        { field: 'insured', before: false, after: true },
        { field: 'name', before: 'Saw', after: 'Circular saw' },
        { field: 'purchasePrice', before: 0, after: 129.5 },
        { field: 'quantity', before: 1, after: 3 },
        { field: 'tagIds', before: [], after: [tools] },
      ]);
    });

    it('records a PATCH move, a custom field changed and removed, and a tag deleted elsewhere', async () => {
      const shelf = await createEntity(app.trove, owner, 'Shelf');
      const paint = await tag('Paint');
      const brush = await createEntity(app.trove, owner, { name: 'Brush', tagIds: [paint] });
      const full = await as(app.trove, owner, 'get', `/api/v1/entities/${brush.id}`).expect(200);
      const fieldsOf = (body: unknown) => (body as { fields: { id: string }[] }).fields;

      await as(app.trove, owner, 'patch', `/api/v1/entities/${brush.id}`)
        .send({ parentId: shelf.id })
        .expect(200);
      const withField = await put(owner, brush, {
        parentId: shelf.id,
        tagIds: [paint],
        fields: [{ type: 'number', name: 'Width', numberValue: 4 }],
      }).expect(200);
      await put(owner, brush, {
        parentId: shelf.id,
        tagIds: [paint],
        fields: [
          { id: fieldsOf(withField.body)[0].id, type: 'number', name: 'Width', numberValue: 6 },
        ],
      }).expect(200);
      await put(owner, brush, { parentId: shelf.id, tagIds: [paint], fields: [] }).expect(200);
      await as(app.trove, owner, 'delete', `/api/v1/tags/${paint}`).expect(204);

      const { items } = await historyOf(app.trove, owner, brush.id);
      expect(items.map((entry) => [entry.operation, entry.changes])).toEqual([
        ['DELETE /api/v1/tags/{id}', [{ field: 'tagIds', before: [paint], after: [] }]],
        ['PUT /api/v1/entities/{id}', [{ field: 'fields.Width', before: 6, after: null }]],
        ['PUT /api/v1/entities/{id}', [{ field: 'fields.Width', before: 4, after: 6 }]],
        ['PUT /api/v1/entities/{id}', [{ field: 'fields.Width', before: null, after: 4 }]],
        ['PATCH /api/v1/entities/{id}', [{ field: 'parentId', before: null, after: shelf.id }]],
        ['POST /api/v1/entities', expect.any(Array)],
      ]);
      expect(fieldsOf(full.body)).toEqual([]);
    });

    it('records attachments added, renamed and removed, without their contents', async () => {
      const radio = await createEntity(app.trove, owner, 'Radio');
      const upload = await as(app.trove, owner, 'post', `/api/v1/entities/${radio.id}/attachments`)
        .attach('file', Buffer.from('%PDF-1.4 secret manual text'), {
          filename: 'manual.pdf',
          contentType: 'application/pdf',
        })
        .field('name', 'manual.pdf')
        .field('type', 'manual')
        .expect(201);
      const attachmentId = (upload.body as { attachments: { id: string }[] }).attachments[0].id;
      await as(app.trove, owner, 'put', `/api/v1/entities/${radio.id}/attachments/${attachmentId}`)
        .send({ title: 'Manual (EN)', type: 'manual', primary: false })
        .expect(200);
      await as(
        app.trove,
        owner,
        'delete',
        `/api/v1/entities/${radio.id}/attachments/${attachmentId}`,
      ).expect(204);

      const { items } = await historyOf(app.trove, owner, radio.id);
      const key = `attachments.${attachmentId}`;
      const added = {
        title: 'manual.pdf',
        type: 'manual',
        primary: false,
        mimeType: 'application/pdf',
      };
      const renamed = { ...added, title: 'Manual (EN)' };
      expect(items.slice(0, 3).map((entry) => [entry.operation, entry.changes])).toEqual([
        [
          'DELETE /api/v1/entities/{id}/attachments/{attachment_id}',
          [{ field: key, before: renamed, after: null }],
        ],
        [
          'PUT /api/v1/entities/{id}/attachments/{attachment_id}',
          [{ field: key, before: added, after: renamed }],
        ],
        ['POST /api/v1/entities/{id}/attachments', [{ field: key, before: null, after: added }]],
      ]);
      expect(JSON.stringify(items)).not.toContain('secret manual text');
    });

    it('keeps the history of a deleted entity, with the delete and the values it had', async () => {
      const lamp = await createEntity(app.trove, owner, { name: 'Lamp', quantity: 1 });
      await as(app.trove, member, 'delete', `/api/v1/entities/${lamp.id}`).expect(204);
      await as(app.trove, owner, 'get', `/api/v1/entities/${lamp.id}`).expect(404);

      const { items, total } = await historyOf(app.trove, viewer, lamp.id);
      expect(total).toBe(2);
      expect(items[0]).toMatchObject({
        action: 'delete',
        entityName: 'Lamp',
        operation: 'DELETE /api/v1/entities/{id}',
        actor: userActor(member),
      });
      expect(items[0].changes).toEqual([
        { field: 'assetId', before: Number(lamp.assetId.replace('-', '')), after: null },
        { field: 'entityTypeId', before: (lamp.entityType as { id: string }).id, after: null },
        { field: 'name', before: 'Lamp', after: null },
        { field: 'quantity', before: 1, after: null },
      ]);
    });

    it('records the children moved to the top when their parent is deleted', async () => {
      const box = await createEntity(app.trove, owner, 'Box');
      const cable = await createEntity(app.trove, owner, { name: 'Cable', parentId: box.id });
      await as(app.trove, owner, 'delete', `/api/v1/entities/${box.id}`).expect(204);
      const { items } = await historyOf(app.trove, owner, cable.id);
      expect(items[0]).toMatchObject({
        action: 'update',
        operation: 'DELETE /api/v1/entities/{id}',
        changes: [{ field: 'parentId', before: box.id, after: null }],
      });
    });

    it('records duplicates and imports as creates by their operation', async () => {
      const kettle = await createEntity(app.trove, owner, 'Kettle');
      const copy = await as(app.trove, owner, 'post', `/api/v1/entities/${kettle.id}/duplicate`)
        .send({})
        .expect(201);
      const copied = await historyOf(app.trove, owner, (copy.body as EntityBody).id);
      expect(copied.items.map((entry) => [entry.action, entry.operation])).toEqual([
        ['create', 'POST /api/v1/entities/{id}/duplicate'],
      ]);

      await importOk(
        app.trove,
        owner,
        csv([
          ['HB.name', 'HB.location', 'HB.quantity', 'HB.import_ref'],
          ['Teapot', 'Kitchen', '2', 'tea-1'],
        ]),
      );
      const [row] = await app.trove.query<{ id: string }>(
        `SELECT id FROM entities WHERE group_id = $1 AND import_ref = 'tea-1'`,
        [owner.groupId],
      );
      const imported = await historyOf(app.trove, owner, row.id);
      expect(imported.items).toEqual([
        expect.objectContaining({
          action: 'create',
          operation: 'POST /api/v1/entities/import',
          actor: userActor(owner),
        }),
      ]);
      expect(imported.items[0].changes).toEqual(
        expect.arrayContaining([
          { field: 'importRef', before: null, after: 'tea-1' },
          { field: 'name', before: null, after: 'Teapot' },
          { field: 'quantity', before: null, after: 2 },
        ]),
      );
    });

    it('records a bulk change as one entry per entity it changed', async () => {
      const shelf = await createEntity(app.trove, owner, 'Top shelf');
      const jars = [
        await createEntity(app.trove, owner, 'Jar 1'),
        await createEntity(app.trove, owner, 'Jar 2'),
      ];
      const moved = await as(app.trove, member, 'post', '/api/v1/entities/bulk')
        .send({ ids: jars.map((jar) => jar.id), action: 'move', parentId: shelf.id })
        .expect(200);
      expect(moved.body).toEqual({ updated: 2 });
      const archived = await as(app.trove, member, 'post', '/api/v1/entities/bulk')
        .send({ ids: [jars[0].id], action: 'archive' })
        .expect(200);
      expect(archived.body).toEqual({ updated: 1 });

      const first = await historyOf(app.trove, owner, jars[0].id);
      expect(
        first.items.slice(0, 2).map((entry) => [entry.operation, entry.actor.id, entry.changes]),
      ).toEqual([
        [
          'POST /api/v1/entities/bulk',
          member.id,
          [{ field: 'archived', before: false, after: true }],
        ],
        [
          'POST /api/v1/entities/bulk',
          member.id,
          [{ field: 'parentId', before: null, after: shelf.id }],
        ],
      ]);
      const second = await historyOf(app.trove, owner, jars[1].id);
      expect(second.items.map((entry) => entry.action)).toEqual(['update', 'create']);
    });

    it('records stock settings and check-outs with their returns', async () => {
      const batteries = await createEntity(app.trove, owner, { name: 'Batteries', quantity: 12 });
      await as(app.trove, owner, 'put', `/api/v1/entities/${batteries.id}/stock`)
        .send({ minQuantity: 4, reorderQuantity: 24, notes: 'AA' })
        .expect(200);
      const lent = await as(app.trove, owner, 'post', `/api/v1/entities/${batteries.id}/checkouts`)
        .send({ quantity: 3, memberId: member.id })
        .expect(201);
      const checkoutId = (lent.body as { id: string }).id;
      await as(
        app.trove,
        member,
        'post',
        `/api/v1/entities/${batteries.id}/checkouts/${checkoutId}/return`,
      )
        .send({ quantity: 2 })
        .expect(200);
      await as(app.trove, owner, 'delete', `/api/v1/entities/${batteries.id}/stock`).expect(204);

      const { items } = await historyOf(app.trove, owner, batteries.id);
      const key = `checkouts.${checkoutId}`;
      const out = {
        quantity: 3,
        returnedQuantity: 0,
        memberId: member.id,
        borrower: null,
        dueOn: null,
        notes: '',
      };
      expect(
        items.slice(0, 4).map((entry) => [entry.operation, entry.actor.id, entry.changes]),
      ).toEqual([
        [
          'DELETE /api/v1/entities/{id}/stock',
          owner.id,
          [
            { field: 'stock.minQuantity', before: 4, after: null },
            { field: 'stock.notes', before: 'AA', after: null },
            { field: 'stock.reorderQuantity', before: 24, after: null },
          ],
        ],
        [
          'POST /api/v1/entities/{id}/checkouts/{checkoutId}/return',
          member.id,
          [{ field: key, before: out, after: { ...out, returnedQuantity: 2 } }],
        ],
        [
          'POST /api/v1/entities/{id}/checkouts',
          owner.id,
          [{ field: key, before: null, after: out }],
        ],
        [
          'PUT /api/v1/entities/{id}/stock',
          owner.id,
          [
            { field: 'stock.minQuantity', before: null, after: 4 },
            { field: 'stock.notes', before: null, after: 'AA' },
            { field: 'stock.reorderQuantity', before: null, after: 24 },
          ],
        ],
      ]);
    });

    it('names the API key a change was made with', async () => {
      const created = await as(app.trove, owner, 'post', '/api/v1/users/self/api-keys')
        .send({ name: 'inventory script' })
        .expect(201);
      const key = created.body as { id: string; token: string };
      const response = await app.trove.http
        .post('/api/v1/entities')
        .set('Authorization', key.token)
        .send({ name: 'Scripted' })
        .expect(201);
      const { items } = await historyOf(app.trove, owner, (response.body as EntityBody).id);
      expect(items[0].actor).toEqual({
        type: 'apiKey',
        id: owner.id,
        name: owner.name,
        apiKey: { id: key.id, name: 'inventory script' },
        issuer: null,
      });
    });

    it('pages newest first', async () => {
      const cup = await createEntity(app.trove, owner, { name: 'Cup', quantity: 1 });
      for (const quantity of [2, 3, 4]) {
        await as(app.trove, owner, 'patch', `/api/v1/entities/${cup.id}`)
          .send({ quantity })
          .expect(200);
      }
      const first = await historyOf(app.trove, owner, cup.id, '?page=1&pageSize=3');
      const second = await historyOf(app.trove, owner, cup.id, '?page=2&pageSize=3');
      const past = await historyOf(app.trove, owner, cup.id, '?page=3&pageSize=3');
      const quantities = (entries: HistoryEntry[]) =>
        entries.map((entry) => entry.changes.find((change) => change.field === 'quantity')?.after);
      expect([first.total, second.total, past.total]).toEqual([4, 4, 4]);
      expect(quantities(first.items)).toEqual([4, 3, 2]);
      expect(second.items.map((entry) => entry.action)).toEqual(['create']);
      expect(past).toEqual({ page: 3, pageSize: 3, total: 4, items: [] });
    });

    it('answers an empty page for an entity of the group without changes recorded', async () => {
      const vase = await createEntity(app.trove, owner, 'Vase');
      await app.trove.query('DELETE FROM entity_history WHERE entity_id = $1', [vase.id]);
      expect(await historyOf(app.trove, owner, vase.id)).toEqual({
        page: 1,
        pageSize: 50,
        total: 0,
        items: [],
      });
    });
  });

  describe('failed changes leave no history', () => {
    it('a PUT refused before writing and a PUT failing after its first writes record nothing', async () => {
      const chair = await createEntity(app.trove, owner, 'Chair');
      const before = await storedHistory(app.trove, chair.id);

      const unknownTag = await put(owner, chair, { tagIds: [UNKNOWN_ID] });
      expect(unknownTag.status).toBe(422);
      // The entity and its tags are written before the custom fields are checked.
      const foreignField = await put(owner, chair, {
        name: 'Armchair',
        fields: [{ id: UNKNOWN_ID, type: 'text', name: 'Colour', textValue: 'red' }],
      });
      expect(foreignField.status).toBe(422);
      expect(foreignField.body).toEqual(
        validation({ 'fields.0.id': `field ${UNKNOWN_ID} is not a field of this entity` }),
      );

      expect(await storedHistory(app.trove, chair.id)).toBe(before);
      const current = await as(app.trove, owner, 'get', `/api/v1/entities/${chair.id}`).expect(200);
      expect((current.body as EntityBody).name).toBe('Chair');
    });
  });

  describe('bad input', () => {
    it('refuses a malformed id, page or page size', async () => {
      const desk = await createEntity(app.trove, owner, 'Desk');
      const malformed = await as(app.trove, owner, 'get', '/api/v1/entities/nope/history');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ error: 'invalid route key: id' });
      for (const [query, field, message] of [
        ['?page=0', 'page', 'page must not be less than 1'],
        ['?page=x', 'page', 'page must not be less than 1; page must be an integer number'],
        ['?pageSize=501', 'pageSize', 'pageSize must not be greater than 500'],
        ['?pageSize=0', 'pageSize', 'pageSize must not be less than 1'],
      ]) {
        const response = await as(
          app.trove,
          owner,
          'get',
          `/api/v1/entities/${desk.id}/history${query}`,
        );
        expect(response.status, query).toBe(422);
        expect(response.body).toEqual(validation({ [field]: message }));
      }
    });

    it('answers 404 for an id the group has no entity or history of', async () => {
      const response = await as(app.trove, owner, 'get', `/api/v1/entities/${UNKNOWN_ID}/history`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `entity ${UNKNOWN_ID} not found` });
    });
  });

  describe('access', () => {
    it('needs a valid token', async () => {
      const stool = await createEntity(app.trove, owner, 'Stool');
      await expectUnauthenticated(app.trove, 'get', `/api/v1/entities/${stool.id}/history`);
    });

    it('shows nothing of another group, not even of a deleted entity', async () => {
      const safe = await createEntity(app.trove, owner, 'Safe');
      const hidden = await as(app.trove, outsider, 'get', `/api/v1/entities/${safe.id}/history`);
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ error: `entity ${safe.id} not found` });

      await as(app.trove, owner, 'delete', `/api/v1/entities/${safe.id}`).expect(204);
      const gone = await as(app.trove, outsider, 'get', `/api/v1/entities/${safe.id}/history`);
      expect(gone.status).toBe(404);
      expect((await historyOf(app.trove, viewer, safe.id)).total).toBe(2);
    });
  });
});
