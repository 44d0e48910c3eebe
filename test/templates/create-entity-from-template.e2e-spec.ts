import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/api.js';
import { signUp, signUpMember, type Session } from '../support/factories.js';
import {
  as,
  createTag,
  createTemplate,
  expectUnauthenticated,
  fieldShape,
  locations,
  NIL_UUID,
  readTemplate,
  storedEntities,
  tags,
  TEMPLATES,
  UNKNOWN_ID,
  validationError,
  VIEWER_ONLY_READS,
  type Reference,
  type TagBody,
  type TemplateBody,
} from './template-helpers.js';

const ENTITY_STORED_KEYS = [
  'archived',
  'asset_id',
  'created_at',
  'description',
  'edges',
  'id',
  'import_ref',
  'insured',
  'lifetime_warranty',
  'manufacturer',
  'model_number',
  'name',
  'notes',
  'purchase_date',
  'purchase_from',
  'purchase_price',
  'quantity',
  'serial_number',
  'sold_date',
  'sold_notes',
  'sold_price',
  'sold_to',
  'sync_child_entity_locations',
  'updated_at',
  'warranty_details',
  'warranty_expires',
];
const EDGE_KEYS = [
  'attachments',
  'children',
  'entity_type',
  'group',
  'location',
  'maintenance_entries',
  'parent',
  'tag',
];

interface StoredEntity {
  id: string;
  name: string;
  asset_id: number;
  created_at: string;
  updated_at: string;
  edges: Record<string, unknown>;
  [key: string]: unknown;
}

/** An entity's stored view (spec §2.6) as a new entity has it; `fields` override. */
const storedShape = (fields: Record<string, unknown>): Record<string, unknown> => ({
  archived: false,
  asset_id: expect.any(Number),
  created_at: expect.any(String),
  description: '',
  id: expect.any(String),
  import_ref: '',
  insured: false,
  lifetime_warranty: false,
  manufacturer: '',
  model_number: '',
  name: expect.any(String),
  notes: '',
  purchase_date: '',
  purchase_from: '',
  purchase_price: 0,
  quantity: 1,
  serial_number: '',
  sold_date: '',
  sold_notes: '',
  sold_price: 0,
  sold_to: '',
  sync_child_entity_locations: false,
  updated_at: expect.any(String),
  warranty_details: '',
  warranty_expires: '',
  edges: {},
  ...fields,
});

const tagStored = (tag: TagBody) => ({
  color: tag.color,
  created_at: tag.createdAt,
  description: tag.description,
  icon: tag.icon,
  id: tag.id,
  name: tag.name,
  updated_at: tag.updatedAt,
  edges: {},
});

interface TypeBody {
  id: string;
  name: string;
  description: string;
  icon: string;
  isLocation: boolean;
  createdAt: string;
  updatedAt: string;
}

const typeStored = (type: TypeBody) => ({
  created_at: type.createdAt,
  description: type.description,
  icon: type.icon,
  id: type.id,
  is_location: type.isLocation,
  name: type.name,
  updated_at: type.updatedAt,
  edges: {},
});

interface EntityFieldBody {
  id: string;
  type: string;
  name: string;
  textValue: string;
  numberValue: number;
  booleanValue: boolean;
}

describe('POST /api/v1/templates/{id}/create-item', () => {
  let owner: Session;
  let member: Session;
  let viewer: Session;
  let outsider: Session;
  let rooms: Record<string, Reference>;
  let ownTags: Record<string, TagBody>;
  let itemType: TypeBody;
  let groupStored: Record<string, unknown>;
  let outsiderRooms: Record<string, Reference>;
  let outsiderTags: Record<string, TagBody>;
  let outsiderTypes: TypeBody[];
  let laptop: TemplateBody;

  /** The stored view of an existing entity of the group, as the database has it. */
  const existingStored = async (id: string) => {
    const [row] = await app.trove.query<{
      name: string;
      description: string;
      asset_id: string;
      quantity: number;
      insured: boolean;
      lifetime_warranty: boolean;
      manufacturer: string;
      model_number: string;
      warranty_details: string;
      created_at: Date;
      updated_at: Date;
    }>(
      `SELECT name, description, asset_id, quantity, insured, lifetime_warranty, manufacturer,
              model_number, warranty_details, created_at, updated_at
       FROM entities WHERE id = $1`,
      [id],
    );
    return storedShape({
      ...row,
      id,
      asset_id: Number(row.asset_id),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    });
  };

  const nextAssetId = async (session: Session): Promise<number> => {
    const [row] = await app.trove.query<{ next: number }>(
      'SELECT (COALESCE(max(asset_id), 0) + 1)::int AS next FROM entities WHERE group_id = $1',
      [session.groupId],
    );
    return row.next;
  };

  const createItem = (session: Session, templateId: string, body: unknown) =>
    as(app.trove, session, 'post', `${TEMPLATES}/${templateId}/create-item`).send(body as object);

  const readEntity = async (session: Session, id: string) =>
    (await as(app.trove, session, 'get', `/api/v1/entities/${id}`).expect(200)).body as {
      name: string;
      parent: { id: string } | null;
      tags: { id: string }[];
      fields: EntityFieldBody[];
      entityType: { id: string };
    };

  const app = useTestApp();
  beforeAll(async () => {
    owner = await signUp(app.trove, { name: 'Ada' });
    member = await signUpMember(app.trove, owner, 'user');
    viewer = await signUpMember(app.trove, owner, 'viewer');
    outsider = await signUp(app.trove, { name: 'Eve' });
    rooms = await locations(app.trove, owner);
    ownTags = await tags(app.trove, owner);
    const types = (await as(app.trove, owner, 'get', '/api/v1/entity-types').expect(200))
      .body as TypeBody[];
    itemType = types.find((type) => type.name === 'Item')!;
    const group = (await as(app.trove, owner, 'get', '/api/v1/groups').expect(200)).body as {
      id: string;
      name: string;
      currency: string;
      createdAt: string;
      updatedAt: string;
    };
    groupStored = {
      created_at: group.createdAt,
      currency: group.currency,
      id: group.id,
      name: group.name,
      updated_at: group.updatedAt,
      edges: {},
    };
    outsiderRooms = await locations(app.trove, outsider);
    outsiderTags = await tags(app.trove, outsider);
    outsiderTypes = (await as(app.trove, outsider, 'get', '/api/v1/entity-types').expect(200))
      .body as TypeBody[];
    laptop = await createTemplate(app.trove, owner, {
      name: 'Laptop template',
      defaultName: 'Laptop',
      defaultDescription: 'A company laptop',
      defaultQuantity: 2.5,
      defaultInsured: true,
      defaultLifetimeWarranty: true,
      defaultManufacturer: 'Lenovo',
      defaultModelNumber: 'T14',
      defaultWarrantyDetails: 'Three years on site',
      defaultLocationId: rooms.Garage.id,
      defaultTagIds: [ownTags.Electronics.id, ownTags.Important.id],
      fields: [
        { type: 'text', name: 'Owner', textValue: 'IT' },
        { type: 'number', name: 'RAM (GB)', numberValue: 32 },
        { type: 'boolean', name: 'Encrypted', booleanValue: true },
        { type: 'time', name: 'Issued', timeValue: '2026-01-31T09:30:00Z' },
      ],
    });
  });

  describe('success', () => {
    it('creates an entity from the template’s defaults and answers 201 with its stored view', async () => {
      const assetId = await nextAssetId(owner);
      const garage = await existingStored(rooms.Garage.id);

      const response = await createItem(owner, laptop.id, {}).expect(201);

      expect(response.body).toEqual(
        storedShape({
          name: 'Laptop',
          description: 'A company laptop',
          asset_id: assetId,
          quantity: 2.5,
          insured: true,
          lifetime_warranty: true,
          manufacturer: 'Lenovo',
          model_number: 'T14',
          warranty_details: 'Three years on site',
          edges: {
            attachments: [],
            children: [],
            entity_type: typeStored(itemType),
            group: groupStored,
            location: garage,
            maintenance_entries: [],
            parent: garage,
            tag: [tagStored(ownTags.Electronics), tagStored(ownTags.Important)],
          },
        }),
      );
      const body = response.body as StoredEntity;
      expect(Object.keys(body).sort()).toEqual(ENTITY_STORED_KEYS);
      expect(Object.keys(body.edges).sort()).toEqual(EDGE_KEYS);
      expect(body.created_at).toBe(body.updated_at);
      expect(await existingStored(body.id)).toEqual({ ...body, edges: {} });

      const entity = await readEntity(owner, body.id);
      expect(entity.parent?.id).toBe(rooms.Garage.id);
      expect(entity.entityType.id).toBe(itemType.id);
      expect(entity.tags.map((tag) => tag.id).sort()).toEqual(
        [ownTags.Electronics.id, ownTags.Important.id].sort(),
      );
      expect(entity.fields).toEqual([
        {
          id: expect.any(String),
          type: 'text',
          name: 'Owner',
          textValue: 'IT',
          numberValue: 0,
          booleanValue: false,
        },
        {
          id: expect.any(String),
          type: 'number',
          name: 'RAM (GB)',
          textValue: '',
          numberValue: 32,
          booleanValue: false,
        },
        {
          id: expect.any(String),
          type: 'boolean',
          name: 'Encrypted',
          textValue: '',
          numberValue: 0,
          booleanValue: true,
        },
        {
          id: expect.any(String),
          type: 'time',
          name: 'Issued',
          textValue: '2026-01-31T09:30:00.000Z',
          numberValue: 0,
          booleanValue: false,
        },
      ]);
      const [row] = await app.trove.query('SELECT group_id FROM entities WHERE id = $1', [body.id]);
      expect(row).toEqual({ group_id: owner.groupId });
    });

    it('keeps number, boolean and time values from the template request to the entity', async () => {
      const template = await createTemplate(app.trove, owner, {
        name: 'Values',
        defaultName: 'Sensor',
        fields: [
          { type: 'number', name: 'Offset', numberValue: -17, textValue: 'mV' },
          { type: 'boolean', name: 'Calibrated', booleanValue: true },
          { type: 'boolean', name: 'Faulty', booleanValue: false },
          { type: 'time', name: 'Calibrated at', timeValue: '2025-06-01T08:15:30.125+02:00' },
          { type: 'time', name: 'Never', timeValue: null, textValue: 'not yet' },
        ],
      });
      const expected = [
        fieldShape({ type: 'number', name: 'Offset', numberValue: -17, textValue: 'mV' }),
        fieldShape({ type: 'boolean', name: 'Calibrated', booleanValue: true }),
        fieldShape({ type: 'boolean', name: 'Faulty' }),
        fieldShape({ type: 'time', name: 'Calibrated at', timeValue: '2025-06-01T06:15:30.125Z' }),
        fieldShape({ type: 'time', name: 'Never', textValue: 'not yet' }),
      ];
      expect(template.fields).toEqual(expected);
      expect((await readTemplate(app.trove, owner, template.id)).fields).toEqual(expected);

      const created = (await createItem(owner, template.id, {}).expect(201)).body as StoredEntity;

      const entity = await readEntity(owner, created.id);
      expect(entity.fields).toEqual([
        {
          id: expect.any(String),
          type: 'number',
          name: 'Offset',
          textValue: 'mV',
          numberValue: -17,
          booleanValue: false,
        },
        {
          id: expect.any(String),
          type: 'boolean',
          name: 'Calibrated',
          textValue: '',
          numberValue: 0,
          booleanValue: true,
        },
        {
          id: expect.any(String),
          type: 'boolean',
          name: 'Faulty',
          textValue: '',
          numberValue: 0,
          booleanValue: false,
        },
        {
          id: expect.any(String),
          type: 'time',
          name: 'Calibrated at',
          textValue: '2025-06-01T06:15:30.125Z',
          numberValue: 0,
          booleanValue: false,
        },
        {
          id: expect.any(String),
          type: 'time',
          name: 'Never',
          textValue: 'not yet',
          numberValue: 0,
          booleanValue: false,
        },
      ]);
      const times = await app.trove.query<{ time_value: Date | null }>(
        `SELECT time_value FROM entity_fields WHERE entity_id = $1 AND type = 'time' ORDER BY position`,
        [created.id],
      );
      expect(times.map((row) => row.time_value?.toISOString() ?? null)).toEqual([
        '2025-06-01T06:15:30.125Z',
        null,
      ]);
    });

    it('copies the template’s fields in the template’s order, with numbers beyond 32 bits', async () => {
      const template = await createTemplate(app.trove, owner, {
        name: 'Counters',
        defaultName: 'Meter',
        fields: [
          { type: 'text', name: 'A' },
          { type: 'number', name: 'B', numberValue: 1 },
        ],
      });
      const [a, b] = template.fields;
      await as(app.trove, owner, 'put', `${TEMPLATES}/${template.id}`)
        .send({
          name: 'Counters',
          fields: [
            { type: 'number', name: 'Zeta', numberValue: -Number.MAX_SAFE_INTEGER },
            { id: b.id, type: 'number', name: 'B', numberValue: Number.MAX_SAFE_INTEGER },
            { id: a.id, type: 'text', name: 'A' },
          ],
        })
        .expect(200);

      const created = (await createItem(owner, template.id, {}).expect(201)).body as StoredEntity;

      const entity = await readEntity(owner, created.id);
      expect(entity.fields).toEqual([
        {
          id: expect.any(String),
          type: 'number',
          name: 'Zeta',
          textValue: '',
          numberValue: -Number.MAX_SAFE_INTEGER,
          booleanValue: false,
        },
        {
          id: expect.any(String),
          type: 'number',
          name: 'B',
          textValue: '',
          numberValue: Number.MAX_SAFE_INTEGER,
          booleanValue: false,
        },
        {
          id: expect.any(String),
          type: 'text',
          name: 'A',
          textValue: '',
          numberValue: 0,
          booleanValue: false,
        },
      ]);
    });

    it('takes name, description, quantity, parent, tags and type from the body', async () => {
      const box = await as(app.trove, owner, 'post', '/api/v1/entities')
        .send({ name: 'Toolbox', parentId: rooms.Garage.id })
        .expect(201);
      const tool = (
        await as(app.trove, owner, 'post', '/api/v1/entity-types')
          .send({ name: 'Tool' })
          .expect(201)
      ).body as TypeBody;
      const assetId = await nextAssetId(owner);

      const response = await createItem(member, laptop.id, {
        name: 'Spare laptop',
        description: 'Kept in the toolbox',
        quantity: 0,
        parentId: box.body.id,
        tagIds: [ownTags.General.id],
        entityTypeId: tool.id,
      }).expect(201);

      expect(response.body).toEqual(
        storedShape({
          name: 'Spare laptop',
          description: 'Kept in the toolbox',
          asset_id: assetId,
          quantity: 0,
          insured: true,
          lifetime_warranty: true,
          manufacturer: 'Lenovo',
          model_number: 'T14',
          warranty_details: 'Three years on site',
          edges: {
            attachments: [],
            children: [],
            entity_type: typeStored(tool),
            group: groupStored,
            location: await existingStored(rooms.Garage.id),
            maintenance_entries: [],
            parent: await existingStored(box.body.id),
            tag: [tagStored(ownTags.General)],
          },
        }),
      );
      const entity = await readEntity(owner, response.body.id);
      expect(entity.parent?.id).toBe(box.body.id);
      expect(entity.entityType.id).toBe(tool.id);
      expect(entity.tags.map((tag) => tag.id)).toEqual([ownTags.General.id]);
      expect(entity.fields).toHaveLength(4);
    });

    it('places the entity at the top for the zero UUID, and [] gives it no tags', async () => {
      const response = await createItem(owner, laptop.id, {
        parentId: NIL_UUID,
        tagIds: [],
        description: '',
        quantity: null,
        name: null,
      }).expect(201);

      expect(response.body).toEqual(
        storedShape({
          name: 'Laptop',
          quantity: 2.5,
          insured: true,
          lifetime_warranty: true,
          manufacturer: 'Lenovo',
          model_number: 'T14',
          warranty_details: 'Three years on site',
          edges: {
            attachments: [],
            children: [],
            entity_type: typeStored(itemType),
            group: groupStored,
            location: null,
            maintenance_entries: [],
            parent: null,
            tag: [],
          },
        }),
      );
      const entity = await readEntity(owner, response.body.id);
      expect(entity.parent).toBeNull();
      expect(entity.tags).toEqual([]);
    });

    it('makes a bare entity from a template with nothing but a default name', async () => {
      const bare = await createTemplate(app.trove, owner, { name: 'Bare', defaultName: 'Thing' });
      const response = await createItem(owner, bare.id, {}).expect(201);
      expect(response.body).toEqual(
        storedShape({
          name: 'Thing',
          edges: {
            attachments: [],
            children: [],
            entity_type: typeStored(itemType),
            group: groupStored,
            location: null,
            maintenance_entries: [],
            parent: null,
            tag: [],
          },
        }),
      );
      expect((await readEntity(owner, response.body.id)).fields).toEqual([]);
    });

    it('fills {{date}}, {{time}} and {{counter}} in the default name and in a sent name', async () => {
      const template = await createTemplate(app.trove, owner, {
        name: 'Placeholders',
        defaultName: 'Cable {{date}} {{time}} #{{counter}} {{unknown}}',
      });

      const first = (await createItem(owner, template.id, {}).expect(201)).body as StoredEntity;
      const date = first.created_at.slice(0, 10);
      const time = first.created_at.slice(11, 16);
      expect(first.name).toBe(`Cable ${date} ${time} #${first.asset_id} {{unknown}}`);
      expect(first.name).toMatch(/^Cable \d{4}-\d{2}-\d{2} \d{2}:\d{2} #\d+ \{\{unknown\}\}$/);

      const second = (await createItem(owner, template.id, { name: '' }).expect(201))
        .body as StoredEntity;
      expect(second.asset_id).toBe(first.asset_id + 1);
      expect(second.name).toBe(
        `Cable ${second.created_at.slice(0, 10)} ${second.created_at.slice(11, 16)} #${second.asset_id} {{unknown}}`,
      );

      const sent = (
        await createItem(owner, template.id, { name: 'Spare {{ COUNTER }}/{{Date}}' }).expect(201)
      ).body as StoredEntity;
      expect(sent.name).toBe(`Spare ${sent.asset_id}/${sent.created_at.slice(0, 10)}`);
      expect((await readEntity(owner, sent.id)).name).toBe(sent.name);
    });

    it('leaves out default tags deleted since instead of refusing them', async () => {
      const doomed = await createTag(app.trove, owner, 'Doomed');
      const template = await createTemplate(app.trove, owner, {
        name: 'Tagged',
        defaultName: 'Tagged thing',
        defaultTagIds: [doomed.id, ownTags.IOT.id],
      });
      await as(app.trove, owner, 'delete', `/api/v1/tags/${doomed.id}`).expect(204);

      const response = await createItem(owner, template.id, {}).expect(201);

      expect(response.body.edges.tag).toEqual([tagStored(ownTags.IOT)]);
      expect((await readEntity(owner, response.body.id)).tags.map((tag) => tag.id)).toEqual([
        ownTags.IOT.id,
      ]);
    });
  });

  describe('bad input', () => {
    const expectRefused = async (
      templateId: string,
      body: unknown,
      fields: Record<string, string>,
    ): Promise<void> => {
      const before = await storedEntities(app.trove, owner.groupId);
      const response = await createItem(owner, templateId, body);
      expect({ body, status: response.status, response: response.body }).toEqual({
        body,
        status: 422,
        response: validationError(fields),
      });
      expect(await storedEntities(app.trove, owner.groupId)).toEqual(before);
    };

    it('answers 422 when neither the body nor the template gives a name', async () => {
      const nameless = await createTemplate(app.trove, owner, {
        name: 'Nameless',
        fields: [{ type: 'text', name: 'F' }],
      });
      const message = 'name is required: send one, or give the template a default name';
      await expectRefused(nameless.id, {}, { name: message });
      await expectRefused(nameless.id, { name: '' }, { name: message });
      await expectRefused(nameless.id, { name: null }, { name: message });
    });

    it('answers 422 for a name too long, also once its placeholders are filled', async () => {
      await expectRefused(
        laptop.id,
        { name: 'n'.repeat(256) },
        { name: 'name must be shorter than or equal to 255 characters' },
      );
      const assetId = await nextAssetId(owner);
      await expectRefused(
        laptop.id,
        { name: `${'n'.repeat(247)}{{date}}` },
        {
          name: 'name must be shorter than or equal to 255 characters once its placeholders are filled',
        },
      );
      // The refused create used no asset id: the next one still gets it.
      const created = await createItem(owner, laptop.id, { name: 'After' }).expect(201);
      expect(created.body.asset_id).toBe(assetId);
    });

    it('answers 422 for a bad description, quantity, parent, tags or type', async () => {
      await expectRefused(
        laptop.id,
        { description: 'd'.repeat(1001), quantity: -1 },
        {
          description: 'description must be shorter than or equal to 1000 characters',
          quantity: 'quantity must not be less than 0',
        },
      );
      await expectRefused(
        laptop.id,
        { quantity: '2', tagIds: ownTags.IOT.id, parentId: 'garage', entityTypeId: 'item' },
        {
          quantity:
            'quantity must not be less than 0; quantity must be a number conforming to the specified constraints',
          tagIds: 'tagIds must be an array',
          parentId: 'parentId must be a UUID',
          entityTypeId: 'entityTypeId must be a UUID',
        },
      );
      await expectRefused(
        laptop.id,
        { tagIds: [ownTags.IOT.id, 'iot'] },
        { tagIds: 'each value in tagIds must be a UUID' },
      );
      await expectRefused(
        laptop.id,
        { tagIds: [ownTags.IOT.id, UNKNOWN_ID] },
        { tagIds: `tag ${UNKNOWN_ID} not found` },
      );
      await expectRefused(
        laptop.id,
        { parentId: UNKNOWN_ID },
        { parentId: `entity ${UNKNOWN_ID} not found` },
      );
      await expectRefused(
        laptop.id,
        { entityTypeId: UNKNOWN_ID },
        { entityTypeId: `entity type ${UNKNOWN_ID} not found` },
      );
    });

    it('answers 400 for a template id that is not a UUID and 404 for an unknown one', async () => {
      const before = await storedEntities(app.trove, owner.groupId);

      const invalid = await createItem(owner, 'laptop', {});
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({ error: 'invalid route key: id' });

      const unknown = await createItem(owner, UNKNOWN_ID, { name: 'Orphan' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: `template ${UNKNOWN_ID} not found` });

      expect(await storedEntities(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('authentication', () => {
    it('answers 401 without a token or with a bad one, and writes nothing', async () => {
      const before = await storedEntities(app.trove, owner.groupId);
      await expectUnauthenticated(app.trove, 'post', `${TEMPLATES}/${laptop.id}/create-item`, {});
      expect(await storedEntities(app.trove, owner.groupId)).toEqual(before);
    });

    it('refuses viewers with 403 and writes nothing', async () => {
      const before = await storedEntities(app.trove, owner.groupId);
      const response = await createItem(viewer, laptop.id, {});
      expect(response.status).toBe(403);
      expect(response.body).toEqual(VIEWER_ONLY_READS);
      expect(await storedEntities(app.trove, owner.groupId)).toEqual(before);
    });
  });

  describe('another group', () => {
    it('answers 404 for another group’s template and writes nothing in either group', async () => {
      const mine = await storedEntities(app.trove, owner.groupId);
      const theirs = await storedEntities(app.trove, outsider.groupId);

      const response = await createItem(outsider, laptop.id, {
        name: 'Stolen',
        parentId: outsiderRooms.Garage.id,
      });

      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: `template ${laptop.id} not found` });
      expect(await storedEntities(app.trove, owner.groupId)).toEqual(mine);
      expect(await storedEntities(app.trove, outsider.groupId)).toEqual(theirs);
    });

    it('refuses another group’s parent, tags and type with 422 and writes nothing', async () => {
      const mine = await storedEntities(app.trove, owner.groupId);
      const theirs = await storedEntities(app.trove, outsider.groupId);
      const theirItemType = outsiderTypes.find((type) => type.name === 'Item')!;

      for (const [body, fields] of [
        [
          { parentId: outsiderRooms.Garage.id },
          { parentId: `entity ${outsiderRooms.Garage.id} not found` },
        ],
        [{ tagIds: [outsiderTags.IOT.id] }, { tagIds: `tag ${outsiderTags.IOT.id} not found` }],
        [
          { entityTypeId: theirItemType.id },
          { entityTypeId: `entity type ${theirItemType.id} not found` },
        ],
      ] as const) {
        const response = await createItem(owner, laptop.id, body);
        expect(response.status).toBe(422);
        expect(response.body).toEqual(validationError(fields));
      }

      expect(await storedEntities(app.trove, owner.groupId)).toEqual(mine);
      expect(await storedEntities(app.trove, outsider.groupId)).toEqual(theirs);
    });
  });
});
